/**
 * A race's compare tab ("Race: fix-title"): an editor tab per race, the page `compare` of the one
 * webview bundle, which gets the race's view (agents/compareView.ts) whenever something in it
 * changed, and sends the user's actions back. It comes back after a window reload: the page keeps
 * its race id in its state, which VS Code hands the serializer.
 */
import { vscode } from "./api";
import type { Log } from "../agents/ports";
import { parseWebviewMessage, type RaceCompareView, type WebviewMessage } from "../shared/protocol";
import { webviewHtml } from "./webviewHtml";
import { DisposableMap, DisposableObject } from "../core/util/lifecycle";

export const COMPARE_PANEL_TYPE = "arcadia.compare";

export type CompareMessage = Extract<WebviewMessage, { type: "compareAction" | "compareDiff" | "runChecks" }>;

export interface CompareTabsDeps {
  context: vscode.ExtensionContext;
  /** The race's view now; null when there is no such race (any more). */
  view(raceId: string): RaceCompareView | null;
  /** The race's title, e.g. its task. */
  title(raceId: string): string | undefined;
  /** A tab was opened or shown again: its figures are read. */
  opened(raceId: string): void;
  act(message: CompareMessage): Promise<void>;
  log: Log;
}

export class CompareTabs extends DisposableObject {
  /** The open tabs by race id: closed with the window's extension (a reload brings them back). */
  private readonly tabs = this._register(new DisposableMap<string, vscode.WebviewPanel>());

  constructor(private readonly deps: CompareTabsDeps) {
    super();
  }

  /** The races whose tab is open. */
  openRaces(): string[] {
    return [...this.tabs.keys()];
  }

  show(raceId: string): void {
    const known = this.tabs.get(raceId);
    if (known) return known.reveal(undefined, false);
    this.adopt(vscode.window.createWebviewPanel(COMPARE_PANEL_TYPE, this.tabTitle(raceId), vscode.ViewColumn.Active, {}), raceId);
  }

  /** A tab for `raceId`: a new one, or one VS Code brings back after a reload. */
  adopt(panel: vscode.WebviewPanel, raceId: string): void {
    const assetsRoot = vscode.Uri.joinPath(this.deps.context.extensionUri, "dist", "webview");
    panel.title = this.tabTitle(raceId);
    panel.iconPath = vscode.Uri.joinPath(this.deps.context.extensionUri, "media", "icon.png");
    panel.webview.options = { enableScripts: true, localResourceRoots: [assetsRoot] };
    panel.webview.html = webviewHtml(panel.webview, assetsRoot, vscode.Uri.joinPath, { raceId }, "compare");
    panel.webview.onDidReceiveMessage((raw) => void this.onMessage(raceId, raw));
    panel.onDidDispose(() => {
      // Closed by the user (or by dispose): it is gone already.
      if (this.tabs.get(raceId) === panel) this.tabs.deleteAndLeak(raceId);
    });
    this.tabs.set(raceId, panel);
  }

  /** Sends the race's view to its tab, if open. */
  update(raceId: string): void {
    const panel = this.tabs.get(raceId);
    if (panel) void panel.webview.postMessage({ type: "compareState", race: this.deps.view(raceId) });
  }

  private tabTitle(raceId: string): string {
    return `Race: ${this.deps.title(raceId) ?? "gone"}`;
  }

  private async onMessage(raceId: string, raw: unknown): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) return this.deps.log.warn(`ignored a message from a compare tab: ${parsed.error}`);
    const message = parsed.message;
    if (message.type === "compareReady") {
      this.update(raceId);
      this.deps.opened(raceId);
      return;
    }
    if (message.type !== "compareAction" && message.type !== "compareDiff" && message.type !== "runChecks") return;
    // A tab acts on its own race only.
    if (message.raceId !== raceId) return this.deps.log.warn(`ignored a compare tab's message about another race`);
    await this.deps.act(message);
  }
}
