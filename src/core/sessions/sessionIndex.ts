/**
 * Every session of some project folders, for the Sessions view: listed fast from what is known,
 * then completed in the background.
 *
 * `list()` stats the folders' `*.jsonl` files and, for each, takes the digest kept in the index
 * when the file is unchanged (same size, mtime and inode), else glances at the file's ends (its
 * first prompt, title and last activity). `fill()` then reads each changed file, newest first, one
 * at a time in small steps — on from where this window last read it when it only grew, else whole
 * — and keeps its digest in the index (a JSON file in the extension's storage), so the next
 * `list()` reads no transcript at all.
 */
import { statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { TAIL_BYTES } from "../transcript";
import { errorMessage, sliced } from "../util";
import type { SessionDigest } from "./sessionDigest";
import { SessionDigestReader } from "./sessionDigestReader";
import { glanceSession, type SessionGlance } from "./sessionGlance";
import { readIndexFile, type StoredEntry, writeIndexFile } from "./sessionIndexFile";

/** Files stat'ed or glanced between two yields to the event loop (about a millisecond's work). */
const SLICE = 25;
/** Bytes per read step while filling: each step holds the event loop a few ms at most. */
const FILL_STEP_BYTES = 256 * 1024;
/** Sessions whose reader stays open between fills, to read on from where it stopped (each holds a fold's state). */
const READERS_KEPT = 16;

export interface SessionFile {
  path: string;
  /** A `<session-id>/` folder exists beside it (sub-agents, the CLI's custom-title.json). */
  hasFolder: boolean;
  projectDir: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

export interface SessionEntry extends SessionFile {
  glance: SessionGlance;
  /** The full digest, when this version of the file has been read whole. */
  digest?: SessionDigest;
}

/** Spelled out, not spread: one per session listed (5,000), and a literal of a fixed shape is cheaper than `{ ...file, … }`. */
const entryOf = (file: SessionFile, glance: SessionGlance, digest?: SessionDigest): SessionEntry => ({
  path: file.path,
  hasFolder: file.hasFolder,
  projectDir: file.projectDir,
  size: file.size,
  mtimeMs: file.mtimeMs,
  ino: file.ino,
  glance,
  digest,
});

const newestFirst = (a: SessionEntry, b: SessionEntry) => (b.glance.lastActiveAt ?? b.mtimeMs) - (a.glance.lastActiveAt ?? a.mtimeMs);

export class SessionIndex {
  private stored: Map<string, StoredEntry> | undefined;
  private saving: Promise<void> = Promise.resolve();
  private dirty = false;
  private generation = 0;
  private readonly readers = new Map<string, SessionDigestReader>();
  /** The one buffer every fill step reads into (LineReaderOptions.scratch), made at the first fill. */
  private scratch: Buffer | undefined;
  /** The read in progress: reads share `scratch`, so a fill that starts during another's waits for it. */
  private reading: Promise<unknown> = Promise.resolve();

  constructor(
    /** The index file; undefined keeps it in memory only. */
    private readonly indexFile: string | undefined,
    private readonly log: (message: string) => void = () => {},
  ) {}

  /** The sessions of these project folders, newest first: unchanged ones from the index, the rest from a glance. */
  async list(projectDirs: readonly string[]): Promise<SessionEntry[]> {
    const stored = await this.load();
    const files = (await Promise.all(projectDirs.map((dir) => this.filesOf(dir)))).flat();
    const entries = await sliced(files, SLICE, (file): SessionEntry | undefined => {
      const known = stored.get(file.path);
      if (known && known.size === file.size && known.mtimeMs === file.mtimeMs && known.ino === file.ino) return entryOf(file, known.glance, known.digest);
      try {
        return entryOf(file, glanceSession(file.path, file.size, file.hasFolder));
      } catch (err) {
        this.log(`sessions: ${file.path} could not be read: ${errorMessage(err)}`);
        return undefined;
      }
    });
    return entries.filter((e): e is SessionEntry => e !== undefined).sort(newestFirst);
  }

  /**
   * Reads the entries without a digest whole, newest first, calling `onEntry` with each one done.
   * A later `fill()` (or `cancel()`) stops this one between files.
   */
  async fill(entries: readonly SessionEntry[], onEntry: (entry: SessionEntry) => void): Promise<void> {
    const generation = ++this.generation;
    const stored = await this.load();
    for (const entry of entries) {
      if (entry.digest) continue;
      if (generation !== this.generation) return;
      try {
        const read = this.reading.then(() => this.digestOf(entry.path));
        this.reading = read.catch(() => undefined);
        const digest = await read;
        const glance: SessionGlance = {
          ...entry.glance,
          title: digest.title ?? entry.glance.title,
          firstPrompt: digest.firstPrompt ?? entry.glance.firstPrompt,
          startedAt: digest.startedAt ?? entry.glance.startedAt,
          lastActiveAt: digest.lastActiveAt ?? entry.glance.lastActiveAt,
        };
        const done: SessionEntry = { ...entry, glance, digest };
        stored.set(entry.path, { size: entry.size, mtimeMs: entry.mtimeMs, ino: entry.ino, glance, digest });
        this.dirty = true;
        onEntry(done);
      } catch (err) {
        this.log(`sessions: ${entry.path} could not be indexed: ${errorMessage(err)}`);
      }
    }
    await this.save();
  }

  cancel(): void {
    this.generation++;
  }

  /**
   * A session's digest, read on from where this window last read it when it grew (a session an
   * agent is working in grows all the time), else from its start. The readers of the sessions read
   * most recently are kept (READERS_KEPT); a rewritten file starts over (LineReader tells).
   */
  private async digestOf(path: string): Promise<SessionDigest> {
    let reader = this.readers.get(path);
    this.readers.delete(path);
    this.scratch ??= Buffer.allocUnsafe(FILL_STEP_BYTES + TAIL_BYTES);
    reader ??= new SessionDigestReader(path, { maxBytesPerRead: FILL_STEP_BYTES, scratch: this.scratch });
    this.readers.set(path, reader);
    if (this.readers.size > READERS_KEPT) this.readers.delete(this.readers.keys().next().value!);
    await reader.advance();
    return reader.current.digest();
  }

  /** Writes the index when it changed (sessionIndexFile.ts: in slices, atomically). */
  save(): Promise<void> {
    this.saving = this.saving.then(async () => {
      if (!this.dirty || !this.indexFile || !this.stored) return;
      this.dirty = false;
      try {
        await writeIndexFile(this.indexFile, this.stored);
      } catch (err) {
        this.log(`sessions: the index ${this.indexFile} could not be saved: ${errorMessage(err)}`);
      }
    });
    return this.saving;
  }

  private async load(): Promise<Map<string, StoredEntry>> {
    if (this.stored) return this.stored;
    let stored = new Map<string, StoredEntry>();
    if (this.indexFile) {
      try {
        stored = await readIndexFile(this.indexFile);
      } catch (err) {
        // A damaged index: sessions are glanced at again and the index rebuilt.
        this.log(`sessions: the index ${this.indexFile} was unreadable and is rebuilt: ${errorMessage(err)}`);
      }
    }
    this.stored ??= stored;
    return this.stored;
  }

  private async filesOf(projectDir: string): Promise<SessionFile[]> {
    let all: string[];
    try {
      all = await readdir(projectDir);
    } catch {
      return [];
    }
    const present = new Set(all);
    const names = all.filter((n) => n.endsWith(".jsonl") && !n.startsWith("agent-"));
    const files = await sliced(names, SLICE, (name) => {
      const path = join(projectDir, name);
      try {
        const info = statSync(path);
        const hasFolder = present.has(name.slice(0, -".jsonl".length));
        return info.isFile() && info.size > 0 ? { path, projectDir, hasFolder, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino } : undefined;
      } catch {
        return undefined;
      }
    });
    return files.filter((f): f is SessionFile => f !== undefined);
  }
}
