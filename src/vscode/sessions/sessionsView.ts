/**
 * The Sessions list, an editor tab ("Arcadia Sessions"; in the short bottom panel every title was
 * cut): every session of the workspace and its worktrees, from the sessions index
 * (core/sessions/sessionIndex.ts) kept in the extension's storage. Listed at once from what is
 * known, then each changed session's figures arrive as it is read whole. Its rows read a session
 * (sessionReader.ts), resume it in a new terminal, or open its raw JSONL. It comes back after a
 * window reload (a panel serializer).
 */
import { existsSync } from "node:fs";
import { combinedDisposable } from "../../core/util";
import { join } from "node:path";
import { vscode } from "../api";
import type { AgentManager } from "../../agents/agent/agentManager";
import type { Log } from "../../agents/ports";
import type { RaceBook } from "../../agents/races/raceBook";
import { followRowFigures, type SessionCards } from "../../agents/sessions/sessionCards";
import { type RowContext, sessionRow } from "../../agents/sessions/sessionRows";
import { raceOfWorktree } from "../../core/races";
import { type SessionEntry, sessionFolders, SessionIndex } from "../../core/sessions";
import { projectDirFor, projectsRoot } from "../../core/transcript";
import { DisposableObject, errorMessage } from "../../core/util";
import { SESSIONS_PAGE, type SessionsProtocol, type SessionsPush } from "../../shared/protocols/sessions";
import { WebviewHost } from "../webviewHost";
import type { ClaudeLauncher } from "../launch/claudeLauncher";
import { openSessionReader } from "./sessionReader";

export const SESSIONS_PANEL_TYPE = "arcadia.sessions";

interface Deps {
  context: vscode.ExtensionContext;
  manager: AgentManager;
  launcher: ClaudeLauncher;
  /** The races: a race's sessions are listed as one group. */
  races: Pick<RaceBook, "all">;
  /** The cards' session figures: a followed session's row shows its card's, and changes with them. */
  figures: Pick<SessionCards, "onDidChange" | "sessionOf" | "rowFigures">;
  log: Log;
}

export class SessionsView extends DisposableObject {
  private view: vscode.WebviewPanel | undefined;
  private host: WebviewHost<SessionsProtocol> | undefined;
  private readonly index: SessionIndex;
  private entries = new Map<string, SessionEntry>();
  private indexing = 0;
  private worktrees = new Map<string, string>();
  private listing = false;
  private listAgain = false;
  /** Sessions a card's figures made the list be made again for, not being in it (once each). */
  private readonly relistedFor = new Set<string>();

  constructor(private readonly deps: Deps) {
    super();
    const storage = deps.context.globalStorageUri.fsPath;
    this.index = new SessionIndex(join(storage, "sessions-index.json"), (m) => deps.log.warn(m));
    // The window going stops a fill of the index in progress.
    this._register({ dispose: () => this.index.cancel() });
    // An agent that comes or goes changes who follows which session: the list is made again.
    this._register(deps.manager.onDidChange(() => void this.refreshFollowed()));
    // A card's figures changed (its follower read more): that session's row, with the card's figures.
    this._register(followRowFigures(deps.figures, (ids) => this.figuresChanged(ids)));
  }

  /** Shows the list: the tab it is in, or a new one in the active editor group. */
  show(): void {
    if (this.view) return this.view.reveal(undefined, false);
    this.adopt(vscode.window.createWebviewPanel(SESSIONS_PANEL_TYPE, "Arcadia Sessions", vscode.ViewColumn.Active, {}));
  }

  /** A tab to show the list in: a new one, or one VS Code brings back after a window reload. */
  adopt(view: vscode.WebviewPanel): void {
    const { extensionUri } = this.deps.context;
    view.iconPath = vscode.Uri.joinPath(extensionUri, "media", "icon.png");
    const host = new WebviewHost(view, {
      page: SESSIONS_PAGE,
      // The page asks for its list (sessionsReady) each time it is shown: it is made anew then.
      handlers: { sessionsReady: () => this.list(), sessionAction: (m) => this.act(m.sessionId, m.action) },
      log: this.deps.log,
      extensionUri,
      joinPath: vscode.Uri.joinPath,
    });
    host.onDidDispose(() => {
      if (this.host === host) [this.view, this.host] = [undefined, undefined];
      this.index.cancel();
    });
    this.view = view;
    this.host = host;
  }

  /** Acts on a session: read it, resume it (or focus the card following it), or open its raw JSONL. */
  async act(sessionId: string, action: "open" | "resume" | "raw"): Promise<void> {
    const entry = this.entries.get(sessionId) ?? (await this.list(), this.entries.get(sessionId));
    if (!entry) {
      void vscode.window.showWarningMessage(`Session ${sessionId} is no longer on disk.`);
      return;
    }
    if (action === "raw") await vscode.window.showTextDocument(vscode.Uri.file(entry.path), { preview: true });
    // The reader offers Resume only where its row does (else it says why).
    else if (action === "open")
      openSessionReader(this.deps.context, entry, (id, a) => this.act(id, a), this.deps.log, sessionRow(entry, this.rowContext()).cannotResume ?? null);
    else await this.resume(entry);
  }

  /** `claude --resume` in the folder the session ran in: the CLI finds a session by its folder's project. */
  private async resume(entry: SessionEntry): Promise<void> {
    const cwd = entry.digest?.cwd ?? entry.glance.cwd ?? this.workspaceFolder();
    if (!cwd || !existsSync(cwd)) {
      void vscode.window.showErrorMessage(
        `Arcadia cannot resume this session: the folder it ran in${cwd ? `, ${cwd},` : ""} is gone (Claude Code finds a session by its folder). Its ` +
          `transcript is still readable.`,
      );
      return;
    }
    try {
      await this.deps.launcher.resume(entry.glance.sessionId, cwd);
    } catch (err) {
      this.deps.log.warn(`resuming ${entry.path}: ${errorMessage(err)}`);
      void vscode.window.showErrorMessage(`Arcadia could not resume this session: ${errorMessage(err)}`);
    }
  }

  private post(message: SessionsPush): void {
    this.host?.post(message);
  }

  private workspaceFolder(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }

  /** The workspace folders' project folders and those of their worktrees (remembered for the rows). */
  private async projectDirs(): Promise<string[]> {
    const folders = await sessionFolders(
      projectsRoot(),
      (vscode.workspace.workspaceFolders ?? []).map((f) => projectDirFor(f.uri.fsPath)),
    );
    this.worktrees = new Map(folders.flatMap((f) => (f.worktree ? [[f.projectDir, f.worktree] as const] : [])));
    return folders.map((f) => f.projectDir);
  }

  /** What rows are made with, looked up once per listing: who follows which session, the worktrees. */
  private rowContext(): RowContext {
    const agents = this.deps.manager.agentIds().flatMap((id) => this.deps.manager.agentInfo(id) ?? []);
    const followers = new Map(agents.map((agent) => [agent.sessionId, agent.name]));
    const worktrees = this.worktrees;
    const races = this.deps.races.all();
    const raceOf = (name: string) => raceOfWorktree(races, name)?.task;
    const cardFigures = (id: string) => this.deps.figures.rowFigures(id);
    return { followedBy: (id) => followers.get(id), worktreeOf: (dir) => worktrees.get(dir), raceOf, cardFigures, folderExists: existsSync, now: Date.now() };
  }

  /**
   * The rows of sessions whose cards' figures changed, sent again with them while the view shows.
   * A session not listed yet (a new one after /clear) makes the list again, once per session.
   */
  private figuresChanged(sessionIds: readonly string[]): void {
    if (!this.view?.visible) return;
    const context = this.rowContext();
    let unlisted = false;
    for (const id of sessionIds) {
      const entry = this.entries.get(id);
      if (entry) this.post({ type: "sessionRow", session: sessionRow(entry, context), indexing: this.indexing });
      else if (!this.relistedFor.has(id)) {
        this.relistedFor.add(id);
        unlisted = true;
      }
    }
    if (unlisted) void this.refreshFollowed();
  }

  private async list(): Promise<void> {
    if (!this.view) return;
    const listed = await this.index.list(await this.projectDirs());
    this.entries = new Map(listed.map((e) => [e.glance.sessionId, e]));
    const waiting = listed.filter((e) => !e.digest);
    this.indexing = waiting.length;
    const context = this.rowContext();
    this.post({ type: "sessionsList", sessions: listed.map((e) => sessionRow(e, context)), indexing: this.indexing });
    void this.index.fill(waiting, (entry) => {
      this.entries.set(entry.glance.sessionId, entry);
      this.indexing = Math.max(0, this.indexing - 1);
      this.post({ type: "sessionRow", session: sessionRow(entry, context), indexing: this.indexing });
    });
  }

  /**
   * An agent came, went or finished a turn: its session's row (who follows it, its figures, a new
   * session) is listed again while the view shows. One listing at a time; changes meanwhile make one more.
   */
  private async refreshFollowed(): Promise<void> {
    if (!this.view?.visible) return;
    if (this.listing) {
      this.listAgain = true;
      return;
    }
    this.listing = true;
    try {
      do {
        this.listAgain = false;
        await this.list();
      } while (this.listAgain);
    } finally {
      this.listing = false;
    }
  }
}

export function registerSessionsView(deps: Deps): vscode.Disposable {
  const view = new SessionsView(deps);
  return combinedDisposable(
    view,
    vscode.window.registerWebviewPanelSerializer(SESSIONS_PANEL_TYPE, { deserializeWebviewPanel: async (panel) => view.adopt(panel) }),
    vscode.commands.registerCommand("arcadia.openSessions", () => view.show()),
  );
}
