/**
 * Where to start reading a large transcript to rebuild an agent's current state: the start of the
 * current turn (however far back), plus the launches of background sub-agents started before it
 * that have not reported back yet (their `Agent` call is still running, across turns).
 *
 * The file is scanned from its end backwards in bounded chunks (linesBackward), never read whole.
 * Each chunk is first searched with cheap byte searches (`indexOf`) for the few strings that can
 * matter; only the lines holding one are decoded and parsed. The scan stops as soon as it knows
 * enough: the turn's start is found, every running background launch before it has its tool_use,
 * and a `turn_duration` record before the current turn's start (not the last turn's own end: an
 * agent that finished during that turn is not counted, yet its notification comes after it) says
 * how many background agents were pending at that moment and that many launches have been found
 * before it (launches older than those were all notified).
 * A short last turn therefore costs one chunk, whatever the file's size; a long one costs what
 * it must, read asynchronously chunk by chunk.
 */
import { isSubagentTool } from "../labels";
import { asArray, asNumber, asString, contentText, isAsyncLaunch, isObject, type Json, newLineStats, parseLine, tagValue, withoutBom } from "../transcript";
import { BACKWARD_CHUNK_BYTES, type BackwardOptions, linesBackward } from "./linesBackward";

/** The largest chunk read at a time (the old single window's size). */
export const RESTORE_MAX_BYTES = BACKWARD_CHUNK_BYTES;

export interface RestorePoint {
  /** Byte offset of the first line to read: the current turn's start (or 0). */
  offset: number;
  /** `boundary`: the turn's start was found; `file-start`: no turn start, the file is read whole. */
  found: "boundary" | "file-start";
  /**
   * Background sub-agents launched before `offset` and still running: for each, its `Agent`
   * tool_use and its `async_launched` result, as records (cut down to that one call), in file
   * order. Feed them before reading from `offset`.
   */
  prelude: Json[];
}

export type RestoreScanOptions = Pick<BackwardOptions, "chunkBytes" | "firstChunkBytes" | "maxLineBytes">;

export type TurnMark = "start" | "end";

/** The CLI version whose `turn_duration` leaves out `pendingBackgroundAgentCount` when it is 0 (recorded fixtures). */
const COUNT_OMITTED_WHEN_ZERO_SINCE = [2, 1, 330];

function parse(line: string | Buffer): Json | undefined {
  try {
    const value: unknown = JSON.parse(withoutBom(typeof line === "string" ? line : line.toString("utf8")));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** What a parsed record means for turns (see turnMark). */
export function markOf(record: Json): TurnMark | undefined {
  if (record.isSidechain === true) return undefined;
  if (record.type === "system") return record.subtype === "turn_duration" ? "end" : undefined;
  if (record.type === "assistant") return record.isApiErrorMessage === true ? "end" : undefined;
  if (record.type !== "user" || record.isMeta === true || record.isCompactSummary === true) return undefined;
  const message = isObject(record.message) ? record.message : {};
  if (asArray(message.content).some((b) => isObject(b) && b.type === "tool_result")) return undefined;
  const text = contentText(message.content).trimStart();
  if (!text || text.includes("<command-name>") || text.includes("<local-command-")) return undefined;
  return text.startsWith("[Request interrupted by user") ? "end" : "start";
}

/**
 * What a line means for turns: `start` — a prompt or a background task's notification;
 * `end` — `turn_duration`, an interrupt, a final API error. Slash commands and their output are
 * neither: after a local command the card still shows how the last turn went.
 */
export function turnMark(line: string): TurnMark | undefined {
  // Cheap filters first: most lines (tool results, bookkeeping) cannot be either.
  const maybeSystem = line.includes('"turn_duration"');
  const maybeError = line.includes('"isApiErrorMessage":true');
  const maybeUser = line.includes('"type":"user"') && !line.includes('"tool_use_id"');
  if (!maybeSystem && !maybeError && !maybeUser) return undefined;
  const record = parse(line);
  return record ? markOf(record) : undefined;
}

/** Whether reading from this line on gives the agent's whole current state. */
export function isTurnBoundary(line: string): boolean {
  return turnMark(line) !== undefined;
}

// The strings that make a line worth parsing, as bit flags per line.
const NEEDLES = [
  ['"turn_duration"', 1],
  ['"isApiErrorMessage":true', 2],
  ['"type":"user"', 4],
  ['"tool_use_id"', 8],
  ['"async_launched"', 16],
  ["<task-notification>", 32],
] as const;
const TURN_DURATION = 1;
const API_ERROR = 2;
const USER = 4;
const TOOL_RESULT = 8;
const ASYNC = 16;
const NOTIFICATION = 32;
const ALL = 63;

/**
 * Lines of `bytes` holding any of the `wanted` needles: line start → [line end, flags]. One indexOf
 * pass per needle.
 */
function flaggedLines(bytes: Buffer, wanted: number): Map<number, [number, number]> {
  const lines = new Map<number, [number, number]>();
  for (const [needle, flag] of NEEDLES) {
    if (!(wanted & flag)) continue;
    for (let at = bytes.indexOf(needle); at >= 0;) {
      const start = at > 0 ? bytes.lastIndexOf(0x0a, at - 1) + 1 : 0;
      const end = bytes.indexOf(0x0a, at);
      const line = lines.get(start);
      if (line) line[1] |= flag;
      else lines.set(start, [end, flag]);
      at = bytes.indexOf(needle, end + 1);
    }
  }
  return lines;
}

interface Launch {
  /** File offset of the async_launched result line. */
  at: number;
  result: Json;
  use?: Json;
  useAt?: number;
}

function versionAtLeast(version: unknown, min: readonly number[]): boolean {
  if (typeof version !== "string") return false;
  const parts = version.split(".").map((p) => Number.parseInt(p, 10));
  for (let i = 0; i < min.length; i++) {
    const have = parts[i] ?? 0;
    if (Number.isNaN(have)) return false;
    if (have !== min[i]) return have > (min[i] as number);
  }
  return true;
}

/** How many background agents were still running when this turn ended, if the record tells. */
function pendingBackgroundAgents(record: Json): number | undefined {
  const count = asNumber(record.pendingBackgroundAgentCount);
  if (count !== undefined) return count;
  return versionAtLeast(record.version, COUNT_OMITTED_WHEN_ZERO_SINCE) ? 0 : undefined;
}

class Scan {
  turnStart: number | undefined;
  /** Tool ids reported back by a task notification → the earliest such notification's offset. */
  private readonly notified = new Map<string, number>();
  /** Background launches not reported back by the end of the file, before the turn's start. */
  readonly launches = new Map<string, Launch>();
  /** Launches whose tool_use line is still to be found (further back). */
  private readonly wanted = new Set<string>();
  /** The newest turn end that says how many background agents were pending then. */
  private checkpoint: { at: number; remaining: number } | undefined;
  private readonly stats = newLineStats();

  done(): boolean {
    return this.turnStart !== undefined && this.wanted.size === 0 && this.checkpoint !== undefined && this.checkpoint.remaining <= 0;
  }

  block(bytes: Buffer, offset: number): void {
    // Past the turn's start only background launches and what ends them still matter.
    const wanted = this.turnStart === undefined ? ALL : ASYNC | NOTIFICATION | (this.checkpoint === undefined ? TURN_DURATION : 0);
    const lines = flaggedLines(bytes, wanted);
    const starts = [...lines.keys()].sort((a, b) => b - a);
    for (const start of starts) {
      const [end, flags] = lines.get(start) as [number, number];
      const turnRelevant = this.turnStart === undefined && (flags & (TURN_DURATION | API_ERROR) || (flags & USER && !(flags & TOOL_RESULT)));
      const bgRelevant = flags & (ASYNC | NOTIFICATION) || (this.checkpoint === undefined && flags & TURN_DURATION);
      if (!turnRelevant && !bgRelevant) continue;
      // parseLine skips bookkeeping records (e.g. api-request-blob, which copies whole conversations) unparsed.
      const record = parseLine(bytes.subarray(start, end), this.stats);
      if (!record || record.isSidechain === true) continue;
      this.line(record, offset + start);
    }
    this.findUses(bytes, offset);
  }

  private line(record: Json, at: number): void {
    if (this.turnStart === undefined && markOf(record) === "start") this.turnStart = at;
    if (record.type === "system" && record.subtype === "turn_duration" && this.checkpoint === undefined) {
      // Not the last turn's own end: the count is of agents still running then, and one that
      // finished during that turn has its notification written only after it. A turn end with a
      // turn start after it has had that moment (an agent launched a chunk or more back was lost
      // until its notification, though a full read shows it running).
      if (this.turnStart === undefined) return;
      const pending = pendingBackgroundAgents(record);
      if (pending !== undefined) this.checkpoint = { at, remaining: pending };
      return;
    }
    if (record.type !== "user" || !isObject(record.message)) return;
    const content = record.message.content;
    const id = tagValue(contentText(content), "tool-use-id");
    if (id && contentText(content).includes("<task-notification>")) this.notified.set(id, at);
    if (!isAsyncLaunch(record.toolUseResult)) return;
    for (const block of asArray(content)) {
      if (!isObject(block) || block.type !== "tool_result") continue;
      const toolId = asString(block.tool_use_id);
      if (!toolId) continue;
      const notifiedAt = this.notified.get(toolId);
      // Pending when that turn ended: launched before it, not reported back before it.
      if (this.checkpoint && at < this.checkpoint.at && (notifiedAt === undefined || notifiedAt > this.checkpoint.at)) this.checkpoint.remaining--;
      // Still running at the end of the file, and launched before the turn read from its start.
      if (notifiedAt !== undefined || this.turnStart === undefined || this.launches.has(toolId)) continue;
      const result: Json = {
        type: "user",
        isSidechain: false,
        timestamp: record.timestamp,
        message: { role: "user", content: [block] },
        toolUseResult: record.toolUseResult,
      };
      this.launches.set(toolId, { at, result });
      this.wanted.add(toolId);
    }
  }

  /** Each wanted launch's `Agent` tool_use: a byte search for its id, then a check of that line. */
  private findUses(bytes: Buffer, offset: number): void {
    for (const id of [...this.wanted]) {
      const launch = this.launches.get(id) as Launch;
      const needle = `"id":"${id}"`;
      let before = Math.min(bytes.length, launch.at - offset);
      while (before > 0) {
        const hit = bytes.lastIndexOf(needle, before - 1);
        if (hit < 0) break;
        const start = hit > 0 ? bytes.lastIndexOf(0x0a, hit - 1) + 1 : 0;
        const end = bytes.indexOf(0x0a, hit);
        const use = this.toolUse(bytes.subarray(start, end), id);
        if (use) {
          launch.use = use;
          launch.useAt = offset + start;
          this.wanted.delete(id);
          break;
        }
        before = start;
      }
    }
  }

  private toolUse(line: Buffer, id: string): Json | undefined {
    const record = parseLine(line, this.stats);
    if (!record || record.type !== "assistant" || record.isSidechain === true || !isObject(record.message)) return undefined;
    for (const block of asArray(record.message.content)) {
      if (isObject(block) && block.type === "tool_use" && block.id === id && typeof block.name === "string" && isSubagentTool(block.name)) {
        return { type: "assistant", isSidechain: false, timestamp: record.timestamp, message: { role: "assistant", content: [block] } };
      }
    }
    return undefined;
  }
}

export async function findRestorePoint(path: string, opts: RestoreScanOptions = {}): Promise<RestorePoint> {
  const scan = new Scan();
  for await (const block of linesBackward(path, opts)) {
    scan.block(block.bytes, block.offset);
    if (scan.done()) break;
  }
  if (scan.turnStart === undefined) return { offset: 0, found: "file-start", prelude: [] };
  const prelude = [...scan.launches.values()]
    .filter((l): l is Launch & { use: Json; useAt: number } => l.use !== undefined && l.at < (scan.turnStart as number))
    .sort((a, b) => a.useAt - b.useAt)
    .flatMap((l) => [l.use, l.result]);
  return { offset: scan.turnStart, found: "boundary", prelude };
}
