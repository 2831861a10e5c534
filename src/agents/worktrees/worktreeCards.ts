/**
 * Worktree agents on their cards: which agents work in a git worktree of their own (their folder
 * is a linked worktree), its branch and base, and their changes against the base
 * (`N files · +a −b`), counted again when the agent's tools end (its hooks) or its turn does, and
 * when anything else changes its worktree — a file edited by hand, a commit from a terminal — by
 * one watch per worktree with a poll under it (worktreeFollow.ts), closed when its card goes.
 * Counting runs git in child processes, one count per agent at a time (a change meanwhile is
 * counted right after), never on the extension host's event loop. Every agent's current branch,
 * worktree or not, is read from its repository's HEAD file, watched (a switch shows at once) and
 * read again with each count's cue (a switch whose file event was lost shows at the next hook).
 */
import { lstat, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { ChangeStats, WorktreeInfo } from "../../core/git";
import { combinedDisposable, type Disposable, DisposableMap, DisposableObject, Emitter, errorMessage, SettledRuns, visibleText } from "../../core/util";
import type { WorktreeView } from "../../shared/protocol";
import type { CardEvents } from "../cards/cardStore";
import type { FolderFacts, WorktreeSource } from "../cards/liveBoard";
import { type HeadWatch, HeadWatches } from "./headWatches";
import type { FollowedWorktree, FollowWorktree } from "./worktreeFollow";

export interface WorktreeCardsDeps {
  worktreeOf(cwd: string): Promise<WorktreeInfo | undefined>;
  changeStats(worktree: string, base: string): Promise<ChangeStats>;
  log: (message: string) => void;
  /** How long changes settle before a count (ms): a burst of edits is counted once. */
  settleMs?: number;
  /** The HEAD files' watches (tests count them). */
  heads?: HeadWatches;
  /** Follows a worktree whatever changes it (worktreeFollow.ts); omitted, it is counted at its agent's hooks and turns only. */
  follow?: FollowWorktree;
}

interface Entry {
  info: WorktreeInfo | undefined;
  /** The card's name, for what is said once it is gone. */
  name: string | undefined;
  changes: WorktreeView["changes"];
  /** The branch checked out in its folder; undefined until read, null outside a repository. */
  branch?: string | null;
  /** Its repository's HEAD file (the worktree's own for a linked worktree), watched. */
  head?: { path: string; watcher: HeadWatch | undefined };
}

export class WorktreeCards extends DisposableObject implements WorktreeSource {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = this._register(new Emitter<string[]>());
  readonly onDidChange = this.changed.event;
  private readonly counts: SettledRuns;
  /** Each worktree agent's worktree followed for changes made outside its tools, while its card is there. */
  private readonly follows = this._register(new DisposableMap<string, FollowedWorktree>());
  /** One watch per HEAD file, shared by the agents in its repository. */
  private readonly heads: HeadWatches;

  constructor(private readonly deps: WorktreeCardsDeps) {
    super();
    this.heads = deps.heads ?? new HeadWatches();
    this.counts = this._register(new SettledRuns(deps.settleMs ?? 300));
  }

  /** An agent working in `cwd`: found out once whether that is a worktree (and counted and followed if so). */
  track(agentId: string, cwd: string, name?: string): void {
    const known = this.entries.get(agentId);
    if (known) {
      if (name) known.name = name;
      return;
    }
    const entry: Entry = { info: undefined, changes: null, name };
    this.entries.set(agentId, entry);
    void this.followHead(agentId, entry, cwd);
    void this.deps.worktreeOf(cwd).then(
      (info) => {
        if (this.entries.get(agentId) !== entry || !info) return;
        entry.info = info;
        this.changed.fire([agentId]);
        const recount = () => {
          if (this.entries.get(agentId) === entry) this.counts.request(agentId, () => this.count(agentId, entry));
        };
        const follow = this.deps.follow?.(info, recount);
        if (follow) this.follows.set(agentId, follow);
        void this.counts.now(agentId, () => this.count(agentId, entry));
      },
      (err) => this.deps.log(`worktree of ${cwd}: ${errorMessage(err)}`),
    );
  }

  /** Something the agent did may have changed files: counted again once things settle. */
  touched(agentId: string): void {
    const entry = this.entries.get(agentId);
    if (entry?.head) void this.readBranch(agentId, entry);
    if (entry?.info) this.counts.request(agentId, () => this.count(agentId, entry));
  }

  nameOf(agentId: string): string | undefined {
    return this.entries.get(agentId)?.name;
  }

  info(agentId: string): WorktreeInfo | undefined {
    return this.entries.get(agentId)?.info;
  }

  worktree(agentId: string): WorktreeView | null {
    const entry = this.entries.get(agentId);
    return entry?.info ? { branch: entry.info.branch, base: entry.info.base, changes: entry.changes } : null;
  }

  /** What the agent's folder says on its card. */
  folderFacts(agentId: string): FolderFacts {
    const branch = this.entries.get(agentId)?.branch;
    return branch ? { worktree: this.worktree(agentId), branch } : { worktree: this.worktree(agentId) };
  }

  /** Counts now (after a merge or a commit the user made from the panel). */
  recount(agentId: string): Promise<void> {
    const entry = this.entries.get(agentId);
    return entry?.info ? this.counts.now(agentId, () => this.count(agentId, entry)) : Promise.resolve();
  }

  forget(agentId: string): void {
    this.counts.cancel(agentId);
    this.entries.get(agentId)?.head?.watcher?.close();
    this.follows.deleteAndDispose(agentId);
    this.entries.delete(agentId);
  }

  override dispose(): void {
    super.dispose();
    for (const entry of this.entries.values()) entry.head?.watcher?.close();
    this.entries.clear();
    this.heads.dispose();
  }

  /** Finds the HEAD file of the repository `cwd` is in, reads the branch, and watches its folder for a switch. */
  private async followHead(agentId: string, entry: Entry, cwd: string): Promise<void> {
    try {
      const path = await headFileOf(cwd);
      if (this.entries.get(agentId) !== entry || !path) return;
      const watcher = this.heads.watch(path, () => void this.readBranch(agentId, entry));
      entry.head = { path, watcher };
      await this.readBranch(agentId, entry);
    } catch (err) {
      this.deps.log(`branch of ${cwd}: ${errorMessage(err)}`);
    }
  }

  private async readBranch(agentId: string, entry: Entry): Promise<void> {
    if (!entry.head) return;
    const branch = branchIn(await readFile(entry.head.path, "utf8").catch(() => ""));
    if (this.entries.get(agentId) !== entry || branch === entry.branch) return;
    entry.branch = branch;
    this.changed.fire([agentId]);
  }

  /** One count (SettledRuns keeps them one at a time per agent). */
  private async count(agentId: string, entry: Entry): Promise<void> {
    if (!entry.info) return;
    this.follows.get(agentId)?.counting();
    try {
      const stats = await this.deps.changeStats(entry.info.path, entry.info.base);
      const changes = { files: stats.files.length, added: stats.added, removed: stats.removed };
      if (this.entries.get(agentId) !== entry) return;
      if (!isDeepStrictEqual(changes, entry.changes)) {
        entry.changes = changes;
        this.changed.fire([agentId]);
      }
    } catch (err) {
      this.deps.log(`changes of ${entry.info.path}: ${errorMessage(err)}`);
    }
  }
}

/** The HEAD file of the repository a folder is in: `.git/HEAD`, or the linked worktree's own (`gitdir:` in a `.git` file). */
async function headFileOf(cwd: string): Promise<string | undefined> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const stat = await lstat(dotGit).catch(() => undefined);
    if (stat?.isDirectory()) return join(dotGit, "HEAD");
    if (stat?.isFile()) {
      const gitdir = /^gitdir:\s*(.+)$/m.exec(await readFile(dotGit, "utf8"))?.[1]?.trim();
      return gitdir ? join(resolve(dir, gitdir), "HEAD") : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** "main" from `ref: refs/heads/main`; a detached HEAD's short commit id; null for anything else. */
function branchIn(head: string): string | null {
  const text = head.trim();
  const ref = /^ref: refs\/heads\/(.+)$/.exec(text)?.[1];
  if (ref) return visibleText(ref);
  return /^[0-9a-f]{40,64}$/.test(text) ? text.slice(0, 7) : null;
}

export interface WorktreeAgentEvents {
  cards: CardEvents;
  agentCwd(agentId: string): string | undefined;
  /** Any hook of the agent (a tool ended: files may have changed). */
  onDidHook(listener: (agentId: string) => void): Disposable;
  /** A worktree agent was closed: its worktree stays on disk (the user may remove it). */
  onWorktreeLeft?(info: WorktreeInfo, agentName: string | undefined): void;
}

/** Keeps the cards' worktrees in step with the agents: found when an agent appears, recounted as it works, dropped when it goes. */
export function followWorktreeAgents(cards: WorktreeCards, events: WorktreeAgentEvents): Disposable {
  return combinedDisposable(
    events.cards.onDidRemoveCard((agentId) => {
      const info = cards.info(agentId);
      const name = cards.nameOf(agentId);
      cards.forget(agentId);
      if (info) events.onWorktreeLeft?.(info, name);
    }),
    events.cards.onDidChangeCard((card) => {
      const cwd = events.agentCwd(card.id);
      if (cwd) cards.track(card.id, cwd, card.name);
    }),
    events.cards.onDidFinishTurn((card) => cards.touched(card.id)),
    events.onDidHook((agentId) => cards.touched(agentId)),
  );
}
