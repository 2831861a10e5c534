/**
 * The folders the nested-repository walk (nestedRepositories.ts) has read, kept between commands so
 * that a folder unchanged since is looked at (one lstat) rather than read again: every sandboxed
 * command walks its writable folders twice (at its launch, and after its end for what it left
 * behind), and reading a large repository's folders (node_modules) cost tens of milliseconds.
 *
 * It must not be fooled by the command it protects, so a folder's listing is believed only when:
 * - its change time (ctime), device and inode are those recorded. Any change to a folder's entries
 *   (create, remove, rename in or out, a hard link made in it) sets its ctime to the kernel's clock,
 *   and no process can set a ctime back (mtime it can: `touch -d`); a folder renamed or made anew
 *   at the same path is another inode;
 * - it was recorded "settled": its ctime was older, by more than the filesystem's timestamp
 *   granularity, than the walk that read it. A change made in the same clock tick as the change
 *   before the read would leave the ctime as it was; such a folder is read again every time until
 *   its ctime is old enough;
 * - it lies on a local filesystem whose times the kernel keeps here (ext4, xfs, btrfs, tmpfs,
 *   overlay…): a network filesystem's ctime comes from another machine's clock, never believed.
 * Its ctime is taken before its entries are read: a change in between shows as a new ctime next time.
 * A folder this process may not list or enter (a command's `chmod 000`, or `chmod 311`/`644`: as
 * the extension host is not root, it cannot look inside) is said to be unreadable, never taken for
 * an empty one, and never recorded: the caller decides (nestedRepositories.ts).
 * Every walk looks at every folder again (the end of each command included: what the command
 * could write is what is looked at), so nothing needs invalidating by hand; two walks at once
 * share the records safely (each record is written whole, synchronously).
 */
import { accessSync, type BigIntStats, constants, type Dirent, lstatSync, readdirSync, statfsSync } from "node:fs";
import { join } from "node:path";

export interface FolderListing {
  /** It holds an entry named `.git` (a folder, a file or a link). */
  dotGit: boolean;
  /** Its sub-folders' paths (links not followed), `.git` left out: kept whole, so that a walk joins no path twice. */
  folders: readonly string[];
  /** It could not be listed or entered (no permission): what it holds is unknown, not nothing. */
  unreadable?: true;
}

/** What is kept of a folder: its listing and what says whether it changed since. */
export interface FolderRecord extends FolderListing {
  dev: bigint;
  ino: bigint;
  stamp: bigint;
  settled: boolean;
}

const NOTHING: FolderListing = { dotGit: false, folders: [] };
const UNREADABLE: FolderListing = { dotGit: false, folders: [], unreadable: true };
/** What lstat or readdir refused for want of permission (as opposed to a path gone meanwhile). */
const DENIED = "denied";

/** A stamp in whole seconds (ext4 with small inodes): believed once 2 s old (2 s granularity covered too). */
const COARSE_UNSETTLED_NS = 2_100_000_000n;
/** A stamp in nanoseconds, set from the kernel's clock, which lags by at most a tick (≤ 10 ms): a wide margin. */
const FINE_UNSETTLED_NS = 100_000_000n;
const NS_PER_S = 1_000_000_000n;

/** statfs f_type of local filesystems that keep ctime from this kernel's clock. */
const LOCAL_FILESYSTEMS: ReadonlySet<number> = new Set([
  0xef53, // ext2/3/4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x794c7630, // overlayfs
  0xf2f52010, // f2fs
  0x2fc12fc1, // zfs
  0xca451a4e, // bcachefs
]);

/** Past this many records (several large workspaces) the oldest go: a walk reads them again. */
const MAX_RECORDS = 200_000;

/** One walk's view: the moment it started (what "settled" is measured from) and which devices it found local. */
export interface FolderWalk {
  listing(folder: string): FolderListing;
}

export class FolderWalks {
  private readonly records = new Map<string, FolderRecord>();
  /** Folders whose entries were read (not believed from a record): for tests and the bench. */
  reads = 0;

  /** A walk starting now: every listing it gives is as the disk is at the moment it is asked. */
  walk(): FolderWalk {
    // Milliseconds, rounded down: the moment is taken no later than it is, which only makes "settled" stricter.
    const started = BigInt(Date.now()) * 1_000_000n;
    const local = new Map<bigint, boolean>();
    const isLocal = (dev: bigint, folder: string): boolean => {
      let known = local.get(dev);
      if (known === undefined) local.set(dev, (known = localFilesystem(folder)));
      return known;
    };
    return { listing: (folder) => this.listing(folder, started, isLocal) };
  }

  private listing(folder: string, started: bigint, isLocal: (dev: bigint, folder: string) => boolean): FolderListing {
    const now = lstatBig(folder);
    if (now === DENIED) {
      this.forget(folder);
      return UNREADABLE;
    }
    if (!now?.isDirectory()) {
      this.forget(folder);
      return NOTHING;
    }
    const recorded = this.records.get(folder);
    if (recorded !== undefined && this.believe(recorded, now)) return recorded;
    // Read after the lstat above: a change in between leaves a ctime newer than the one kept.
    // Listed but not entered (r without x: names without their kinds' checks) is unreadable too.
    const entries = mayEnter(folder, now) ? readEntries(folder) : DENIED;
    this.reads++;
    if (entries === DENIED) {
      this.forget(folder);
      return UNREADABLE;
    }
    if (entries === undefined) {
      this.forget(folder);
      return NOTHING;
    }
    const listing: FolderListing = {
      dotGit: entries.some((e) => e.name === ".git"),
      folders: entries.filter((e) => e.name !== ".git" && e.isDirectory()).map((e) => join(folder, e.name)),
    };
    if (recorded !== undefined) {
      const still = new Set(listing.folders);
      for (const gone of recorded.folders) if (!still.has(gone)) this.forget(gone);
    }
    if (!isLocal(now.dev, folder)) {
      this.records.delete(folder);
      return listing;
    }
    if (this.records.size >= MAX_RECORDS && !this.records.has(folder)) this.records.delete(this.records.keys().next().value as string);
    const stamp = this.stampOf(now);
    this.records.set(folder, { ...listing, dev: now.dev, ino: now.ino, stamp, settled: stamp < started - this.unsettledFor(stamp) });
    return listing;
  }

  /** Whether a record still says what the folder holds (see the file's comment). */
  protected believe(recorded: FolderRecord, now: BigIntStats): boolean {
    return recorded.settled && recorded.dev === now.dev && recorded.ino === now.ino && recorded.stamp === this.stampOf(now);
  }

  /** The folder's change time: set by the kernel on every change of its entries, never settable back. */
  protected stampOf(stats: BigIntStats): bigint {
    return stats.ctimeNs;
  }

  /** How long after its stamp a folder is not believed: the filesystem's timestamp granularity, with a margin. */
  protected unsettledFor(stamp: bigint): bigint {
    return stamp % NS_PER_S === 0n ? COARSE_UNSETTLED_NS : FINE_UNSETTLED_NS;
  }

  /** A folder and what was recorded below it. */
  private forget(folder: string): void {
    const recorded = this.records.get(folder);
    if (recorded === undefined) return;
    this.records.delete(folder);
    for (const path of recorded.folders) this.forget(path);
  }

  /** How many folders are recorded (tests). */
  get size(): number {
    return this.records.size;
  }
}

function lstatBig(path: string): BigIntStats | undefined | typeof DENIED {
  try {
    return lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch (err) {
    return denied(err) ? DENIED : undefined;
  }
}

/** A folder's entries; DENIED without permission, undefined when gone meanwhile (or no folder now). */
function readEntries(folder: string): Dirent[] | undefined | typeof DENIED {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch (err) {
    return denied(err) ? DENIED : undefined;
  }
}

const UID = process.getuid?.();

/**
 * Whether this process may list and enter the folder. Its owner with r and x in the mode may (an
 * ACL's owner entry is the mode's owner bits): no system call, the usual case. Else the kernel's
 * answer (group and other bits, ACLs, root's capabilities).
 */
function mayEnter(folder: string, stats: BigIntStats): boolean {
  if (UID !== undefined && Number(stats.uid) === UID && (Number(stats.mode) & 0o500) === 0o500) return true;
  try {
    accessSync(folder, constants.R_OK | constants.X_OK);
    return true;
  } catch (err) {
    return !denied(err); // gone meanwhile: readdir says so
  }
}

function denied(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === "EACCES" || code === "EPERM";
}

function localFilesystem(folder: string): boolean {
  try {
    return LOCAL_FILESYSTEMS.has(statfsSync(folder).type);
  } catch {
    return false;
  }
}

/** The extension host's records, shared by every sandbox (what one command's end looked at, the next launch believes). */
export const folderWalks = new FolderWalks();
