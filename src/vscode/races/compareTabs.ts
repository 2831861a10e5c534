/**
 * A race's compare tab ("Race: fix-title"): an editor tab per race, the page `compare` of the one
 * webview bundle, which gets the race's view (agents/races/compareView.ts) whenever something in it
 * changed, and sends the user's actions back. It comes back after a window reload: the page keeps
 * its race id in its state, which VS Code hands the serializer.
 */
import { vscode } from "../api";
import type { Log } from "../../agents/ports";
import type { RaceCompareView } from "../../shared/protocol";
import { COMPARE_PAGE, type CompareHandlers, type CompareMessage, type CompareProtocol } from "../../shared/protocols/compare";
import { WebviewHost } from "../webviewHost";
import { type Disposable, DisposableMap, DisposableObject } from "../../core/util";
import type { CompareTarget } from "../../agents/races/compareFeed";
import { raceGroupId } from "../../agents/races/raceBudget";
import { BUDGET_COMMANDS } from "../budget/budgetCommands";

/** An open tab: disposing it closes the tab (its host goes with it). */
interface OpenTab {
  panel: vscode.WebviewPanel;
  host: WebviewHost<CompareProtocol>;
  dispose(): void;
}

export const COMPARE_PANEL_TYPE = "arcadia.compare";

/** What a tab's buttons ask about its race (raceActions.ts does it). */
export type CompareAction = Extract<CompareMessage, { type: "compareAction" | "compareDiff" | "runChecks" }>;

export interface CompareTabsDeps {
  context: vscode.ExtensionContext;
  /** The race's view now; null when there is no such race (any more). */
  view(raceId: string): RaceCompareView | null;
  /** The race's title, e.g. its task. */
  title(raceId: string): string | undefined;
  /** A tab was opened or shown again: its figures are read. */
  opened(raceId: string): void;
  /** One member's figures read again (its agent worked). */
  reread(raceId: string, agentId: string): void;
  /** One member's figures read now, by its name (its worktree changed). */
  readMember(raceId: string, member: string): void;
  /** What the tab follows of its race while it is open (agents/races/compareFeed.ts): disposed with the tab. */
  follow(raceId: string, tab: CompareTarget): Disposable;
  act(message: CompareAction): Promise<void>;
  log: Log;
}

export class CompareTabs extends DisposableObject {
  /** The open tabs by race id: closed with the window's extension (a reload brings them back); a second tab for a race closes the first. */
  private readonly tabs = this._register(new DisposableMap<string, OpenTab>());

  constructor(private readonly deps: CompareTabsDeps) {
    super();
  }

  show(raceId: string): void {
    const known = this.tabs.get(raceId);
    if (known) return known.panel.reveal(undefined, false);
    this.adopt(vscode.window.createWebviewPanel(COMPARE_PANEL_TYPE, this.tabTitle(raceId), vscode.ViewColumn.Active, {}), raceId);
  }

  /** A tab for `raceId`: a new one, or one VS Code brings back after a reload. */
  adopt(panel: vscode.WebviewPanel, raceId: string): void {
    const { extensionUri } = this.deps.context;
    panel.title = this.tabTitle(raceId);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, "media", "icon.png");
    const host = new WebviewHost(panel, {
      page: COMPARE_PAGE,
      handlers: this.handlers(raceId),
      log: this.deps.log,
      extensionUri,
      joinPath: vscode.Uri.joinPath,
      initialState: { raceId },
    });
    const feed = this.deps.follow(raceId, {
      visible: () => panel.visible,
      onDidChangeVisible: (listener) => panel.onDidChangeViewState((e) => listener(e.webviewPanel.visible)),
      show: () => this.update(raceId),
      reread: (agentId) => this.deps.reread(raceId, agentId),
      readMember: (member) => this.deps.readMember(raceId, member),
      readAll: () => this.deps.opened(raceId),
    });
    host.onDidDispose(() => {
      // Closed by the user (or by dispose): it is gone already; what it followed goes with it.
      feed.dispose();
      if (this.tabs.get(raceId)?.host === host) this.tabs.deleteAndLeak(raceId);
    });
    this.tabs.set(raceId, { panel, host, dispose: () => panel.dispose() });
  }

  /** Sends the race's view to its tab, if open. */
  update(raceId: string): void {
    this.tabs.get(raceId)?.host.post({ type: "compareState", race: this.deps.view(raceId) });
  }

  private tabTitle(raceId: string): string {
    return `Race: ${this.deps.title(raceId) ?? "gone"}`;
  }

  /** A tab acts on its own race only. */
  private handlers(raceId: string): CompareHandlers {
    const act = async (message: CompareAction) => {
      if (message.raceId !== raceId) return this.deps.log.warn(`ignored a compare tab's message about another race`);
      await this.deps.act(message);
    };
    return {
      compareReady: () => {
        this.deps.opened(raceId);
        return { type: "compareState", race: this.deps.view(raceId) };
      },
      compareAction: act,
      compareDiff: act,
      runChecks: act,
      capRace: (message) => {
        if (message.raceId !== raceId) return this.deps.log.warn(`ignored a compare tab's message about another race`);
        void vscode.commands.executeCommand(BUDGET_COMMANDS.capRace, { raceGroup: raceGroupId(raceId) });
      },
    };
  }
}
