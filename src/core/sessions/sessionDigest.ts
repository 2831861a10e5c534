/**
 * What a session amounts to, folded from its transcript: its title, first prompts, when it ran,
 * its turns, the files it edited, the tokens it used (and, from them, its estimated cost) and a
 * usage limit it ran into. A pure fold over records (`SessionDigestFold`); `sessionDigestReader.ts`
 * feeds it a file incrementally. The Sessions view lists digests; a card shows its session's.
 */
import {
  isObject,
  type Json,
  type LineStats,
  parseLine,
  SessionEdits,
  timestampOf,
  type TranscriptEvent,
  TranscriptInterpreter,
  withoutBom,
} from "../transcript";
import { endsLimit, type LimitNotice, limitNoticeOf, UsageLedger, type UsageTotals } from "../usage";
import { oneLine } from "../util";
import { emptyHistory, foldTurns, type TurnHistory } from "./turnHistory";

/** Prompts kept per session for the text filter (the first ones), each cut to PROMPT_CHARS. */
export const MAX_PROMPTS = 20;
const PROMPT_CHARS = 200;
const TITLE_CHARS = 120;

export interface SessionDigest {
  sessionId: string;
  /** The CLI's own title: `/rename` (custom-title), its generated one (ai-title), or an old CLI's summary. */
  title?: string;
  firstPrompt?: string;
  /** The first prompts typed (MAX_PROMPTS), for finding a session by what was asked. */
  prompts: string[];
  startedAt?: number;
  lastActiveAt?: number;
  turns: number;
  /** Sum of the turns' durations (ms): each `turn_duration`, else its prompt → its last record (the turn under way too). */
  activeMs: number;
  filesEdited: number;
  usage: UsageTotals;
  /** The last limit the session ran into, while no reply has come since. */
  limit?: LimitNotice;
  /** The folder it ran in, from its records. */
  cwd?: string;
  gitBranch?: string;
}

type TitleSource = "custom" | "ai" | "summary";
export interface SessionTitle {
  source: TitleSource;
  text: string;
}
/** Which title wins: a name the user gave beats the CLI's own, which beats an old CLI's summary. */
const TITLE_RANK: Record<TitleSource, number> = { summary: 0, ai: 1, custom: 2 };

/**
 * System records a side query of the CLI writes, not the conversation: the away summary's recap
 * (CLI 2.1.330 writes it after minutes idle, unasked), which must not make an idle session look active.
 */
const SIDE_QUERY_SUBTYPES: ReadonlySet<unknown> = new Set(["away_summary"]);

/** Records that carry the conversation: their timestamps are the session's activity. */
export const isConversation = (record: Json) =>
  record.type === "user" || record.type === "assistant" || (record.type === "system" && !SIDE_QUERY_SUBTYPES.has(record.subtype));

/** A title record (`custom-title`, `ai-title`, `summary`): which, and its text. */
export function titleOf(record: Json): SessionTitle | undefined {
  if (record.type === "custom-title") return titleFrom("custom", record.customTitle);
  if (record.type === "ai-title") return titleFrom("ai", record.aiTitle);
  if (record.type === "summary") return titleFrom("summary", record.summary);
  return undefined;
}

/** A function of its own, not a closure made per call: titleOf runs on every record a glance reads. */
function titleFrom(source: TitleSource, value: unknown): SessionTitle | undefined {
  const text = typeof value === "string" ? oneLine(value, TITLE_CHARS) : "";
  return text ? { source, text } : undefined;
}

/** The title to keep once `record` is seen: its title if it ranks as high as `current` (a later one of a rank wins), else `current`. */
export function betterTitle(current: SessionTitle | undefined, record: Json): SessionTitle | undefined {
  const title = titleOf(record);
  return title && (!current || TITLE_RANK[title.source] >= TITLE_RANK[current.source]) ? title : current;
}

const TYPE_HEAD = Buffer.from('{"type":"');
const TITLE_TYPES = ["custom-title", "ai-title", "summary"].map((type) => Buffer.from(`${type}"`));

/**
 * Whether the line at `start` (ending at `end`) opens `{"type":"custom-title"` (or ai-title,
 * summary), after a byte order mark if any. Byte by byte in place: a glance asks it of every line
 * of a file's tail, and a string or a native compare per line was a tenth of a 5,000-session list.
 */
export function isTitleAt(bytes: Uint8Array, start: number, end: number): boolean {
  if (end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) start += 3;
  if (!bytesAt(bytes, start, end, TYPE_HEAD)) return false;
  start += TYPE_HEAD.length;
  for (const type of TITLE_TYPES) if (bytesAt(bytes, start, end, type)) return true;
  return false;
}

function bytesAt(bytes: Uint8Array, at: number, end: number, expected: Uint8Array): boolean {
  if (at + expected.length > end) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[at + i] !== expected[i]) return false;
  return true;
}

/**
 * A line as a record, title records included (the line parser skips those as bookkeeping without
 * decoding them; they are picked out here by their first bytes).
 */
export function isTitleLine(line: Buffer): boolean {
  return isTitleAt(line, 0, line.length);
}

export function sessionRecordOf(line: Buffer, stats: LineStats): Json | undefined {
  if (!isTitleLine(line)) return parseLine(line, stats);
  const bytes = withoutBom(line);
  try {
    const value: unknown = JSON.parse(bytes.toString("utf8"));
    return isObject(value) ? value : undefined;
  } catch {
    stats.malformed++;
    return undefined;
  }
}

export class SessionDigestFold {
  private readonly interpreter = new TranscriptInterpreter();
  private readonly ledger = new UsageLedger();
  private edits: SessionEdits | undefined;
  private readonly prompts: string[] = [];
  private title: SessionTitle | undefined;
  private startedAt: number | undefined;
  private lastActiveAt: number | undefined;
  /**
   * Time in the turns that ended, each by `turn_duration` when the CLI wrote one, else from its
   * prompt to its last record (TurnHistory's figure): a turn cut by Escape, a denial, or its CLI
   * killed (a window reload) has none, and counted as nothing its member read "Working —".
   */
  private endedTurnsMs = 0;
  /** The number of the last ended turn added to endedTurnsMs. */
  private lastCountedTurn = 0;
  private limit: LimitNotice | undefined;
  private cwd: string | undefined;
  private gitBranch: string | undefined;
  readonly history: TurnHistory = emptyHistory();

  /** @param cwd the session's folder when known (edits are resolved against it), else its records' `cwd`. */
  constructor(
    readonly sessionId: string,
    cwd?: string,
  ) {
    this.cwd = cwd;
    if (cwd) this.edits = new SessionEdits(cwd);
  }

  /** A title record, which the line parser skips as bookkeeping. */
  addTitle(record: Json): void {
    this.title = betterTitle(this.title, record);
  }

  /** One record of the session's own file, interpreted here. */
  add(record: Json): void {
    if (record.type === "custom-title" || record.type === "ai-title" || record.type === "summary") return this.addTitle(record);
    this.note(record);
    this.addEvents(this.interpreter.handle(record));
  }

  /**
   * A record of the session's own file that was interpreted elsewhere (a follower's engine): what
   * the record itself says (times, folder, branch, tokens). Its events come in `addEvents`.
   */
  note(record: Json): void {
    const at = timestampOf(record);
    if (at !== undefined && isConversation(record)) {
      this.startedAt ??= at;
      this.lastActiveAt = Math.max(this.lastActiveAt ?? at, at);
    }
    if (this.cwd === undefined && typeof record.cwd === "string") {
      this.cwd = record.cwd;
      this.edits = new SessionEdits(record.cwd);
    }
    if (typeof record.gitBranch === "string" && record.gitBranch) this.gitBranch = record.gitBranch;
    this.addUsage(record);
  }

  /** The events of the session's own records, in order (prompts, turns, edits). */
  addEvents(events: readonly TranscriptEvent[]): void {
    for (const event of events) {
      if (event.kind === "prompt" && event.source === "user" && this.prompts.length < MAX_PROMPTS) {
        const text = oneLine(event.text, PROMPT_CHARS);
        if (text) this.prompts.push(text);
      }
    }
    this.edits?.apply(events);
    foldTurns(this.history, events);
    this.countEndedTurns();
  }

  /** Adds the turns ended since the last look (newest last: a look goes back only past those). */
  private countEndedTurns(): void {
    const { turns } = this.history;
    let from = turns.length;
    while (from > 0 && turns[from - 1]!.number > this.lastCountedTurn) from--;
    for (const turn of turns.slice(from)) {
      if (turn.ending === "running") break;
      this.endedTurnsMs += turn.durationMs ?? 0;
      this.lastCountedTurn = turn.number;
    }
  }

  /** Time working: the ended turns, and the one under way to its last record. */
  private activeMs(): number {
    const last = this.history.turns.at(-1);
    const running = last?.ending === "running" && last.startedAt !== undefined && last.endedAt !== undefined ? last.endedAt - last.startedAt : 0;
    return this.endedTurnsMs + Math.max(0, running);
  }

  /** A record of one of its sub-agents' files: their tokens count for the session too. */
  addUsage(record: Json): void {
    this.ledger.add(record);
    const notice = limitNoticeOf(record, timestampOf(record));
    if (notice) this.limit = notice;
    else if (this.limit && endsLimit(record)) this.limit = undefined;
  }

  /** Tokens so far (what a card shows as it changes, without copying the whole digest). */
  get usage(): UsageTotals {
    return this.ledger.usage;
  }

  /** Tokens of records written on a local day ("2026-11-28"): what the budget's day cap counts. */
  usageOn(day: string): UsageTotals {
    return this.ledger.usageOn(day);
  }

  get limitNotice(): LimitNotice | undefined {
    return this.limit;
  }

  digest(): SessionDigest {
    return {
      sessionId: this.sessionId,
      title: this.title?.text,
      firstPrompt: this.prompts[0],
      prompts: [...this.prompts],
      startedAt: this.startedAt,
      lastActiveAt: this.lastActiveAt,
      turns: this.history.count,
      activeMs: this.activeMs(),
      filesEdited: this.edits?.files.size ?? 0,
      usage: this.ledger.usage,
      limit: this.limit,
      cwd: this.cwd,
      gitBranch: this.gitBranch,
    };
  }

  /** The files edited (absolute paths). */
  get editedFiles(): ReadonlySet<string> {
    return this.edits?.files ?? new Set();
  }
}
