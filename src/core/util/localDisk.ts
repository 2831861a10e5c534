/**
 * The small file calls of the live path (a transcript's stat and read, a status file's, a folder's
 * identity), done at once where the disk is local, through libuv's thread pool elsewhere.
 *
 * Why: a call through the pool costs about 50 µs of CPU here (a hand-over to a pool thread, a
 * wake-up of the event loop, two context switches); the same stat done at once costs 3–4 µs. With
 * fifty working agents, each one's transcript and status file looked at every second and each
 * change read, that is some 300 calls a second: the hand-overs alone were over 1 % of a core.
 *
 * A call done at once blocks the extension host until the disk answers, so it is done at once only
 * on a file system that answers from memory or a local device (ext4, xfs, btrfs, tmpfs, overlay,
 * zfs …), as `statfs` tells for the folder. A network or bridged one (NFS, SMB, 9p as WSL2's
 * `/mnt/c`, FUSE, virtiofs), one whose kind is not known yet, any platform other than Linux, and a
 * folder whose call once took over SLOW_CALL_MS all go through the pool, as before.
 */
import { type BigIntStats, closeSync, fstatSync, openSync, readSync, statfs, statSync } from "node:fs";
import { open, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { RecentMap } from "./recentMap";

/** `statfs` f_type values of local file systems (linux/magic.h). */
const LOCAL_FILE_SYSTEMS = new Set([
  0xef53, // ext2, ext3, ext4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x858458f6, // ramfs
  0x794c7630, // overlayfs (containers)
  0x2fc12fc1, // zfs
  0xf2f52010, // f2fs
  0xca451a4e, // bcachefs
]);

/** A call done at once that takes longer than this sends its folder's calls to the pool for good. */
export const SLOW_CALL_MS = 20;

/** What a LineReader needs of an open file: Node's FileHandle has it, so has the at-once one. */
export interface ReadHandle {
  stat(options: { bigint: true }): Promise<BigIntStats>;
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

export type DiskMode = "at once" | "pooled";

export interface LocalDiskOptions {
  /** The folder's file-system kind (default: fs.statfs). */
  fileSystemOf?: (dir: string) => Promise<number>;
  platform?: NodeJS.Platform;
  now?: () => number;
}

export class LocalDisk {
  /** By folder (the last thousand or so: a day makes a sub-agent folder per session): how its calls are made; absent while its kind is being asked. */
  private readonly modes = new RecentMap<string, DiskMode>(1024);
  /** Folders whose call once took too long: pooled for good, whatever else is forgotten. */
  private readonly slow = new Set<string>();
  private readonly asking = new Set<string>();
  private readonly fileSystemOf: (dir: string) => Promise<number>;
  private readonly platform: NodeJS.Platform;
  private readonly now: () => number;

  constructor(options: LocalDiskOptions = {}) {
    this.fileSystemOf = options.fileSystemOf ?? ((dir) => new Promise((resolve, reject) => statfs(dir, (err, s) => (err ? reject(err) : resolve(s.type)))));
    this.platform = options.platform ?? process.platform;
    this.now = options.now ?? (() => performance.now());
  }

  /** How calls for files in `dir` are made now (the first call for a folder asks its kind, and is pooled). */
  modeOf(dir: string): DiskMode {
    const known = this.modes.get(dir);
    if (known) return known;
    if (this.slow.has(dir)) return "pooled";
    if (this.platform !== "linux") return "pooled";
    if (!this.asking.has(dir)) {
      this.asking.add(dir);
      void this.kindOf(dir).then((kind) => {
        this.asking.delete(dir);
        if (!this.modes.has(dir)) this.modes.set(dir, kind !== undefined && LOCAL_FILE_SYSTEMS.has(kind) ? "at once" : "pooled");
      });
    }
    return "pooled";
  }

  /**
   * The file-system kind of `dir`, or of its nearest folder that exists (a session's sub-agent
   * folder is looked for long before it is made: it will be made on the same disk); undefined when
   * it cannot be told.
   */
  private async kindOf(dir: string): Promise<number | undefined> {
    for (let at = dir; ; at = dirname(at)) {
      try {
        return await this.fileSystemOf(at);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if ((code !== "ENOENT" && code !== "ENOTDIR") || dirname(at) === at) return undefined;
      }
    }
  }

  async stat(path: string): Promise<BigIntStats> {
    const dir = dirname(path);
    if (this.modeOf(dir) === "pooled") return stat(path, { bigint: true });
    return this.timed(dir, () => statSync(path, { bigint: true }));
  }

  /** A small file's text; one longer than `maxBytes` is refused (code EFBIG), never read whole. */
  async readText(path: string, maxBytes: number): Promise<string> {
    const handle = await this.open(path);
    try {
      // Small first (a status file is a few hundred bytes: Node's shared pool serves it), grown to the bound only for a bigger file.
      let buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, 2048));
      let length = 0;
      while (length <= maxBytes) {
        if (length === buffer.length) buffer = Buffer.concat([buffer], Math.min(maxBytes + 1, buffer.length * 4));
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
      }
      if (length > maxBytes) throw Object.assign(new Error(`${path} is over ${maxBytes} bytes`), { code: "EFBIG" });
      return buffer.toString("utf8", 0, length);
    } finally {
      await handle.close();
    }
  }

  async open(path: string): Promise<ReadHandle> {
    const dir = dirname(path);
    if (this.modeOf(dir) === "pooled") return open(path, "r");
    const fd = this.timed(dir, () => openSync(path, "r"));
    return {
      stat: async () => this.timed(dir, () => fstatSync(fd, { bigint: true })),
      read: async (buffer, offset, length, position) => ({ bytesRead: this.timed(dir, () => readSync(fd, buffer, offset, length, position)) }),
      close: async () => closeSync(fd),
    };
  }

  /** Runs a call at once; one that took too long (a disk spinning up, a mount gone bad) sends the folder to the pool. */
  private timed<T>(dir: string, call: () => T): T {
    const started = this.now();
    try {
      return call();
    } finally {
      if (this.now() - started > SLOW_CALL_MS) {
        this.slow.add(dir);
        this.modes.set(dir, "pooled");
      }
    }
  }
}

/** The process's one: every follower of a folder shares what is known of it. */
export const localDisk = new LocalDisk();
