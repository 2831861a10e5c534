/**
 * `/clear` without the CLI's word for it: each agent's project folder is watched (one watch per
 * folder, shared by its agents: reference-counted), and a new transcript that a `/clear` started
 * moves the focused agent of that project to it (the rule: clearClaim.ts). An agent whose process
 * names its session is moved by that instead (processBinding.ts), never by this guess.
 */
import { ProjectFolderWatcher } from "../../core/engine";
import { sessionIdOf, startsWithClear } from "../../core/transcript";
import type { Clock } from "../../core/util";
import type { AgentRegistry } from "./agentRegistry";
import { chooseClaimant, quietWait } from "./clearClaim";
import type { Log } from "../ports";

export interface FolderWatch {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** `working`: an agent of the folder works (the folder is then looked at every second, events or not). */
export type WatchFolder = (dir: string, onNewTranscript: (path: string) => void, working?: () => boolean) => FolderWatch;

/** How long a new file may take to show its /clear record before it is not ours. */
const CLEAR_RECORD_WAIT_MS = 5000;
const CLEAR_POLL_MS = 100;

/** The default: a ProjectFolderWatcher announcing new transcripts. */
export const projectFolderWatch: WatchFolder = (dir, onNewTranscript, working) => {
  const watcher = new ProjectFolderWatcher(dir, { working });
  watcher.onDidAddTranscript(onNewTranscript);
  return watcher;
};

export interface ClearWatchDeps {
  registry: AgentRegistry;
  log: Log;
  clock: Clock;
  watchFolder: WatchFolder;
  persist(): Promise<void>;
  isDisposed(): boolean;
}

export class ClearWatch {
  private readonly folders = new Map<string, { watch: FolderWatch; users: number }>();
  private readonly claiming = new Set<string>();

  constructor(private readonly deps: ClearWatchDeps) {}

  /** One more agent in `dir`: the folder is watched while any is. */
  watch(dir: string): void {
    const existing = this.folders.get(dir);
    if (existing) {
      existing.users++;
      return;
    }
    const working = () => this.deps.registry.ordered().some((a) => a.projectDir === dir && a.busy);
    const watch = this.deps.watchFolder(dir, (path) => void this.considerNewTranscript(dir, path), working);
    this.folders.set(dir, { watch, users: 1 });
    void watch.start().catch((err) => this.deps.log.warn(`watching ${dir} failed: ${String(err)}`));
  }

  unwatch(dir: string): void {
    const entry = this.folders.get(dir);
    if (!entry || --entry.users > 0) return;
    this.folders.delete(dir);
    void entry.watch.stop();
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.folders.values()].map((f) => f.watch.stop()));
    this.folders.clear();
  }

  /** A new transcript appeared: if a /clear made it, the focused agent of that project moves to it. */
  private async considerNewTranscript(projectDir: string, file: string): Promise<void> {
    const { registry, log } = this.deps;
    if (this.claiming.has(file) || registry.ordered().some((a) => a.transcript === file)) return;
    this.claiming.add(file);
    try {
      // The file is created before its first records are written: give them a moment.
      let isClear = false;
      for (let waited = 0; waited <= CLEAR_RECORD_WAIT_MS && !this.deps.isDisposed(); waited += CLEAR_POLL_MS) {
        if ((isClear = await startsWithClear(file))) break;
        await this.sleep(CLEAR_POLL_MS);
      }
      if (!isClear) {
        log.info(`${file}: not started by /clear (e.g. --resume or another window); not claimed`);
        return;
      }
      if (registry.ordered().some((a) => a.processSessionId === sessionIdOf(file))) return;
      const claimant = chooseClaimant(projectDir, file, registry.ordered(), registry.focused(), registry.lastFocused, registry.anyTerminalFocused);
      if (!claimant) {
        log.info(`${file}: started by /clear, but no focused agent in its project claims it`);
        return;
      }
      if (claimant.processSessionId !== undefined) {
        // Its process says exactly which session it is in: that rule moves it, not this guess.
        return;
      }
      // After /clear the old file still gets a last record or two; switch once it is quiet.
      for (let wait = quietWait(claimant, this.deps.clock.now()); wait > 0; wait = quietWait(claimant, this.deps.clock.now())) {
        await this.sleep(wait);
      }
      if (!registry.has(claimant.id) || registry.ordered().some((a) => a.transcript === file)) return;
      const previous = claimant.sessionId;
      await claimant.follow(sessionIdOf(file), false);
      log.info(`${claimant.name}: /clear, moved from session ${previous} to ${claimant.sessionId}`);
      await this.deps.persist();
    } finally {
      this.claiming.delete(file);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.deps.clock.setTimeout(resolve, ms));
  }
}
