/**
 * What a sandboxed command sees of the machine, as data: which paths are bound where and how,
 * its environment and its folder. Made from the disk by layoutFromDisk.ts, turned into
 * bubblewrap's arguments by bwrapArguments.ts (pure, so the whole shape is tested without a
 * process).
 */
export type Mount =
  /** The host's `source` (default: `path` itself), read-only, at `path`. */
  | { kind: "readOnly"; path: string; source?: string }
  /** The host's `path`, writable, at the same place. */
  | { kind: "writable"; path: string }
  /** An empty writable folder in memory (the sandbox's own /tmp, HOME): gone when it ends. */
  | { kind: "scratch"; path: string }
  /** An empty read-only folder over `path`: hides what is there, or keeps a missing name from being made. */
  | { kind: "emptyFolder"; path: string }
  /** An empty read-only file over `path` (/dev/null): hides a file. */
  | { kind: "emptyFile"; path: string }
  /** A symbolic link, as merged-/usr systems have for /bin, /lib… */
  | { kind: "symlink"; path: string; target: string };

export interface SandboxLayout {
  /** The folder the command starts in (inside a bound path). */
  cwd: string;
  /** The whole environment the command gets (nothing else is inherited). */
  env: Readonly<Record<string, string>>;
  /** In any order: bwrapArguments orders them so that a deeper mount is made after the one it sits on. */
  mounts: readonly Mount[];
  /**
   * Missing protected places covered by an empty read-only folder, so the command cannot create
   * them. Made on the host just before the command starts (a mount needs a place) and removed
   * after the last sandbox that bound one has exited (standIns.ts).
   */
  stubs: readonly string[];
  /** Folders inside a writable root made mount points (bound onto themselves) so that they cannot be renamed or removed. */
  pins?: readonly string[];
  /** Whether it keeps the host's network (a Run check the user allowed it for); default: none. */
  network?: boolean;
  /** Who the command runs as inside (never root: no capability over its own mounts). */
  user?: { uid: number; gid: number };
  /** The writable roots and every nested `.git` in them when it started (leftBehind.ts compares). */
  repositories?: RepositoriesBefore;
  /** Why the command must ask instead of running unasked (protectedPlaces.ts); empty when none. */
  concerns?: readonly string[];
}

/** What the launch saw (layoutFromDisk: SandboxLayout.repositories). */
export interface RepositoriesBefore {
  roots: readonly string[];
  found: readonly string[];
  missing?: readonly string[];
  /** When the launch began (ns since the epoch, launchMoment): folders born since are the command's. */
  since?: bigint;
  /** Folders the launch could not read, with their stamp then (unreadableFolders.ts). */
  unreadable?: Readonly<Record<string, string | undefined>>;
}
