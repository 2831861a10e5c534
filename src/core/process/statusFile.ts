/**
 * The CLI's live status file: `<config>/sessions/<pid>.json`, one per running `claude` process
 * (2.1.330; see "Permission prompts and live status" in the CLI reference). The CLI rewrites it
 * in place, so a read can catch it half-written: parsing never throws and says "torn" instead,
 * and the caller keeps what it read before.
 */
import { basename, join } from "node:path";
import * as z from "zod/mini";
import { localDisk, mtimeTooRecent } from "../util";

/** What Arcadia shows. The file's own word is kept in `rawStatus`. */
export type LiveStatus = "idle" | "busy" | "waiting";

export interface ClaudeStatus {
  pid: number;
  sessionId?: string;
  cwd?: string;
  /** The process's start time as the CLI saw it: Linux clock ticks since boot (`/proc/<pid>/stat`
   * field 22), macOS `ps -o lstart=` in LC_ALL=C and TZ=UTC, Windows in `procStartFt`. */
  procStart?: string;
  /** `idle` / `busy` / `waiting`; undefined when absent or a word this version does not know, so
   * callers fall back to the transcript. The file's `shell` reads as `idle` + `backgroundShell`. */
  status?: LiveStatus;
  /** The file said `shell`: the turn is over (the prompt takes input) while a background Bash
   * task still runs (checked with 2.1.330: `busy` → `shell` → `idle` when the task ends). */
  backgroundShell?: boolean;
  /** The file's own word. */
  rawStatus?: string;
  /** e.g. "permission prompt", "dialog open", "input needed" (strings seen in 2.1.330). */
  waitingFor?: string;
  /** `derived` from the folder, or `user` for `claude -n NAME`. */
  name?: string;
  nameSource?: string;
  kind?: string;
  version?: string;
  /** ms since the epoch. */
  startedAt?: number;
  statusUpdatedAt?: number;
  updatedAt?: number;
}

export type StatusParse = { ok: true; status: ClaudeStatus } | { ok: false; reason: "torn" | "not an object" | "no pid" };

// Lenient on purpose: the format is internal to the CLI. Unknown fields are ignored, and a field
// of an unexpected type is dropped rather than failing the whole file.
// Built on the first file read, not when the extension loads (activation time).
function buildFileShape() {
  const optionalString = z.catch(z.optional(z.string()), undefined);
  const optionalNumber = z.catch(z.optional(z.number()), undefined);
  return z.looseObject({
    pid: z.catch(z.optional(z.int().check(z.positive())), undefined),
    sessionId: optionalString,
    cwd: optionalString,
    procStart: optionalString,
    procStartFt: optionalString,
    status: optionalString,
    waitingFor: optionalString,
    name: optionalString,
    nameSource: optionalString,
    kind: optionalString,
    version: optionalString,
    startedAt: optionalNumber,
    statusUpdatedAt: optionalNumber,
    updatedAt: optionalNumber,
  });
}
let fileShape: ReturnType<typeof buildFileShape> | undefined;

const STATUS_WORDS: Partial<Record<string, LiveStatus>> = { idle: "idle", busy: "busy", waiting: "waiting", shell: "idle" };

/** `<pid>.json` → pid; anything else in the folder (`<pid>.<hash>.key`, temp files) → undefined. */
export function statusFilePid(fileName: string): number | undefined {
  const m = /^(\d+)\.json$/.exec(basename(fileName));
  return m ? Number(m[1]) : undefined;
}

export function sessionsDir(configDir: string): string {
  return join(configDir, "sessions");
}

export function statusFilePath(configDir: string, pid: number): string {
  return join(sessionsDir(configDir), `${pid}.json`);
}

/**
 * Parses a status file's text. `expectedPid` (from the file name) is used when the file has no
 * `pid`, and wins over a different one: the name is what the CLI looks files up by.
 */
export function parseStatusFile(text: string, expectedPid?: number): StatusParse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: "torn" };
  }
  fileShape ??= buildFileShape();
  const parsed = fileShape.safeParse(json);
  if (!parsed.success) return { ok: false, reason: "not an object" };
  const f = parsed.data;
  const pid = expectedPid ?? f.pid;
  if (pid === undefined) return { ok: false, reason: "no pid" };
  const status: ClaudeStatus = { pid };
  // Windows writes its start time as `procStartFt` (FILETIME) instead of `procStart`.
  const procStart = f.procStart ?? f.procStartFt;
  const assign = <K extends keyof ClaudeStatus>(key: K, value: ClaudeStatus[K] | undefined) => {
    if (value !== undefined) status[key] = value;
  };
  assign("sessionId", f.sessionId);
  assign("cwd", f.cwd);
  assign("procStart", procStart);
  assign("rawStatus", f.status);
  assign("status", f.status === undefined ? undefined : STATUS_WORDS[f.status]);
  if (f.status === "shell") status.backgroundShell = true;
  assign("waitingFor", f.waitingFor);
  assign("name", f.name);
  assign("nameSource", f.nameSource);
  assign("kind", f.kind);
  assign("version", f.version);
  assign("startedAt", f.startedAt);
  assign("statusUpdatedAt", f.statusUpdatedAt);
  assign("updatedAt", f.updatedAt);
  return { ok: true, status };
}

export type StatusRead = StatusParse | { ok: false; reason: "missing" | "unreadable" };

/** Far more than a status file the CLI writes (a few hundred bytes): a bigger one is unreadable, never read whole. */
export const STATUS_FILE_MAX_BYTES = 64 * 1024;

/** Reads `<config>/sessions/<pid>.json`; never throws. */
export async function readStatusFile(configDir: string, pid: number): Promise<StatusRead> {
  let text: string;
  try {
    text = await localDisk.readText(statusFilePath(configDir, pid), STATUS_FILE_MAX_BYTES);
  } catch (err) {
    return { ok: false, reason: (err as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : "unreadable" };
  }
  return parseStatusFile(text, pid);
}

/**
 * What tells one version of a status file from another without reading it: its identity, size and
 * times. Undefined when it cannot be stat'ed, or its mtime is too recent to trust (the CLI rewrites
 * the file in place, often at the same size: busy and idle are both four letters).
 */
export async function statusFileStamp(configDir: string, pid: number): Promise<string | undefined> {
  try {
    const s = await localDisk.stat(statusFilePath(configDir, pid));
    return mtimeTooRecent(s.mtimeNs) ? undefined : `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}
