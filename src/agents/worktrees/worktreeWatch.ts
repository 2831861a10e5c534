/**
 * One git worktree watched whatever changes it — its agent, the user's editor, a terminal: its files
 * (those git does not ignore, by one fs.watch per folder) and the git files it is given (its HEAD, a
 * branch's ref: a commit or a switch from a terminal). A burst of changes is told once,
 * WORKTREE_QUIET_MS after the last; a burst of ignored files alone (a build, a check's logs,
 * node_modules) is not told. Ignored folders are not watched: git names those there when the watch
 * starts, and is asked about new paths once a burst (`git check-ignore`), only while its owner may act
 * on it (`asking()`); otherwise every burst is told as it is. Shared by a race's compare tab
 * (races/memberWatch.ts) and the worktree agents' cards (worktreeFollow.ts): git's rules decide what
 * counts, in both.
 */
import { existsSync } from "node:fs";
import { basename, relative, sep } from "node:path";
import type { GitFolders } from "../../core/git";
import { errorMessage, nativeFolderWatch, type WatchFactory } from "../../core/util";
import type { HeadWatch, HeadWatches } from "./headWatches";

/** A save writes a file, a temp file and a rename; `git commit` the index, the ref and its log: one look for the burst. */
export const WORKTREE_QUIET_MS = 150;
/** Paths asked about at once at most: a larger burst is told without asking (real work, or too much to sort). */
const MAX_ASKED = 200;
/** Paths remembered as not ignored at most (then forgotten, and asked about again). */
const MAX_KNOWN = 20_000;
/** Folders below a worktree's root that are watched (a source tree is rarely a tenth of this deep). */
const WORKTREE_TREE_DEPTH = 64;

/**
 * How a worktree is watched: every folder git does not ignore, at most `maxFolders` of them. An agent
 * can make folders without end in its worktree, and each would hold one of the user's inotify watches
 * (max_user_watches; 8,192 on older kernels), the ones VS Code and every other watcher need too.
 * `who` names the watcher in the log ("compare", "card").
 */
export function worktreeTreeWatch(log: (message: string) => void, maxFolders: number, who: string): WatchFactory {
  const onFull = (root: string) => log(`${who}: ${root} has more than ${maxFolders} folders; those past them are not watched (read again as its agent works)`);
  return nativeFolderWatch({ depth: WORKTREE_TREE_DEPTH, maxFolders, onFull, noLinks: true });
}

export interface WorktreeWatchDeps {
  heads: Pick<HeadWatches, "watch">;
  /** Where a worktree's own git folder and the repository's common one are (git says). */
  gitFolders(cwd: string): Promise<GitFolders | undefined>;
  /** How a worktree's folders are watched (worktreeTreeWatch). */
  watchTree: WatchFactory;
  /** The ignored paths of a worktree now, relative, `/`-separated (core/git ignoredNow). */
  ignoredNow(worktree: string): Promise<string[]>;
  /** Those of `paths` git ignores (core/git ignoredAmong). */
  ignoredAmong(worktree: string, paths: readonly string[]): Promise<Set<string>>;
  log(message: string): void;
}

export interface WorktreeWatchOptions {
  root: string;
  /** The git files watched besides the tree, once git said where its folders are. */
  gitFiles(folders: GitFolders): string[];
  /** Told once a burst that may change what git sees is over. */
  tell(): void;
  /** Whether to ask git about a burst's paths (false: tell every burst). */
  asking(): boolean;
  /** Prefix of what is logged ("compare", "card"). */
  who: string;
}

export class WorktreeWatch {
  /** Ignored paths (folders and files), relative and `/`-separated: not watched, not told. */
  private ignored = new Set<string>();
  /** Paths git said are not ignored. */
  private readonly known = new Set<string>();
  private readonly pending = new Set<string>();
  /** Its git state moved, or its root reported itself (removed, or an event without a name): told without asking. */
  private gitMoved = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** git is being asked about a burst; another burst waits for the answer. */
  private sorting = false;
  private again = false;
  private tree: ReturnType<WatchFactory> | undefined;
  private gitWatches: HeadWatch[] = [];
  private disposed = false;
  private readonly root: string;

  /** `heard`: any event of the watch, told at once (before the burst is sorted): the owner's poll knows the watch lives. */
  constructor(
    private readonly deps: WorktreeWatchDeps,
    private readonly opts: WorktreeWatchOptions,
    private readonly heard: () => void = () => undefined,
  ) {
    this.root = opts.root;
  }

  /** Whether its files are watched (false: the watch could not be set up, or not yet). */
  get watching(): boolean {
    return this.tree !== undefined;
  }

  /** Resolves once the watches are in place (or found impossible: then its owner's other cues read it). */
  async start(): Promise<void> {
    await this.readIgnored();
    if (this.disposed) return;
    try {
      this.tree = this.deps.watchTree(
        this.root,
        (path) => this.admits(this.relative(path)),
        (path) => this.touched(path),
      );
    } catch (err) {
      this.deps.log(`${this.opts.who}: ${this.root} is not watched (${errorMessage(err)}); it is read again as its agent works`);
      return;
    }
    await this.tree.ready;
    const folders = await this.deps.gitFolders(this.root).catch(() => undefined);
    if (this.disposed || !folders) return;
    this.gitWatches = this.opts.gitFiles(folders).flatMap((file) => this.deps.heads.watch(file, () => this.gitChanged()) ?? []);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    void this.tree?.close();
    for (const w of this.gitWatches) w.close();
  }

  private async readIgnored(): Promise<void> {
    try {
      this.ignored = new Set(await this.deps.ignoredNow(this.root));
    } catch (err) {
      this.deps.log(`${this.opts.who}: which files of ${this.root} git ignores is not known (${errorMessage(err)}): all are watched`);
    }
  }

  private relative(path: string): string {
    return relative(this.root, path).split(sep).join("/");
  }

  /** Not the `.git` file or folder, nor an ignored path or anything below one. */
  private admits(rel: string): boolean {
    if (rel === ".git" || rel.startsWith(".git/")) return false;
    for (let at = 0; ;) {
      const cut = rel.indexOf("/", at);
      if (this.ignored.has(cut < 0 ? rel : rel.slice(0, cut))) return false;
      if (cut < 0) return true;
      at = cut + 1;
    }
  }

  private touched(path: string): void {
    if (path === this.root) this.gitMoved = true;
    else this.pending.add(this.relative(path));
    this.schedule();
  }

  private gitChanged(): void {
    this.gitMoved = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.disposed) return;
    this.heard();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.settle(), WORKTREE_QUIET_MS);
    this.timer.unref?.();
  }

  private tell(): void {
    if (!this.disposed) this.opts.tell();
  }

  /** The burst is over: told if anything git does not ignore changed. */
  private async settle(): Promise<void> {
    if (this.disposed) return;
    if (this.sorting) return void (this.again = true);
    const paths = [...this.pending].filter((p) => this.admits(p));
    this.pending.clear();
    const moved = this.gitMoved;
    this.gitMoved = false;
    if (paths.some((p) => basename(p) === ".gitignore")) {
      // What is ignored changed: forget what was sorted, and watch the folders no longer ignored.
      this.known.clear();
      await this.readIgnored();
      void this.tree?.rescan?.();
      return this.tell();
    }
    const asking = this.opts.asking();
    if (moved || (paths.length > 0 && (!asking || paths.length > MAX_ASKED || paths.some((p) => this.known.has(p))))) return this.tell();
    if (paths.length === 0) return;
    this.sorting = true;
    try {
      const ignored = await this.deps.ignoredAmong(this.root, paths);
      if (this.known.size + paths.length > MAX_KNOWN) this.known.clear();
      for (const p of paths) (ignored.has(p) ? this.ignored : this.known).add(p);
      if (paths.some((p) => !ignored.has(p))) this.tell();
    } catch (err) {
      // A worktree removed meanwhile (Pick's clean-up, a removal) is no news: its owner reads it again.
      if (existsSync(this.root)) this.deps.log(`${this.opts.who}: git could not say which changes of ${this.root} it ignores (${errorMessage(err)})`);
      this.tell();
    } finally {
      this.sorting = false;
      if (this.again) {
        this.again = false;
        void this.settle();
      }
    }
  }
}
