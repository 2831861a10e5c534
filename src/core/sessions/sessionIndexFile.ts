/**
 * The Sessions index on disk (the extension's global storage): JSON lines, a version line then one
 * line per session, written and read a slice of lines at a time with a turn of the event loop
 * between slices. As one JSON text, 5,000 sessions (4 MB) held the event loop ~30 ms to write
 * (Object.fromEntries + JSON.stringify, at the end of every fill) and as long to parse — over 50 ms
 * on a slower machine. Written atomically (a temp file renamed over it), 0600.
 */
import { mkdir, open, readFile, rename } from "node:fs/promises";
import { dirname } from "node:path";
import { sliced } from "../util";
import type { SessionDigest } from "./sessionDigest";
import type { SessionGlance } from "./sessionGlance";

/**
 * 1 was a single JSON object (`{"version":1,"entries":{…}}`): read as "no index", rebuilt. 2 counted
 * a session's working time from `turn_duration` records alone (a turn cut by Escape or a killed CLI
 * as nothing): rebuilt once, so the Working column counts those turns too.
 */
export const INDEX_VERSION = 3;
/** Lines stringified or parsed between two yields (well under a millisecond's work). */
const LINES_PER_SLICE = 100;

export interface StoredEntry {
  size: number;
  mtimeMs: number;
  ino: number;
  glance: SessionGlance;
  digest: SessionDigest;
}

const versionLine = JSON.stringify({ version: INDEX_VERSION });

/** Writes `entries` to `file`. A change to the map while it is written may or may not be in it. */
export async function writeIndexFile(file: string, entries: ReadonlyMap<string, StoredEntry>): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, "w", 0o600);
  try {
    await handle.write(`${versionLine}\n`);
    const paths = [...entries.keys()];
    for (let i = 0; i < paths.length; i += LINES_PER_SLICE) {
      let chunk = "";
      for (const path of paths.slice(i, i + LINES_PER_SLICE)) {
        const entry = entries.get(path);
        if (entry) chunk += `${JSON.stringify({ path, ...entry })}\n`;
      }
      // Each write is a turn of the event loop: the next slice waits for it.
      await handle.write(chunk);
    }
  } finally {
    await handle.close();
  }
  await rename(temp, file);
}

/**
 * The entries of `file`; none when it does not exist. Throws when it is not an index of this
 * version's shape (the caller rebuilds it); a damaged line alone is skipped.
 */
export async function readIndexFile(file: string): Promise<Map<string, StoredEntry>> {
  const entries = new Map<string, StoredEntry>();
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return entries;
    throw err;
  }
  const lines = text.split("\n");
  const first = lines[0] ?? "";
  // An index of another version (1 was one JSON text, megabytes long) is not parsed at all.
  if (first !== versionLine) {
    if (first.startsWith('{"version":')) return entries;
    throw new Error("not a sessions index");
  }
  await sliced(lines.slice(1), LINES_PER_SLICE, (line) => {
    if (!line) return;
    try {
      const { path, ...entry } = JSON.parse(line) as StoredEntry & { path?: unknown };
      if (typeof path === "string" && typeof entry.size === "number") entries.set(path, entry);
    } catch {
      // A damaged line: that session is glanced at again and indexed anew.
    }
  });
  return entries;
}
