/**
 * A usage or rate limit the session ran into, read from the transcript, and how a card says it.
 *
 * What the CLI writes when the API refuses a turn for a limit: a synthetic `assistant` record with
 * `isApiErrorMessage: true`, `error: "rate_limit"` (or `billing_error`), `apiErrorStatus: 429`, and
 * text that depends on the account:
 * - API key (recorded with 2.1.330): "API Error: Request rejected (429) · <the API's message>";
 * - API key past its organisation's spend limit (recorded with 2.1.330): a 400, `error: "unknown"`,
 *   "API Error: 400 You have reached your specified API usage limits. You will regain access on
 *   2026-12-01 at 00:00 UTC." (the API's own sentence, with the moment in UTC);
 * - Claude subscription (2.1.x): "You've hit your limit · resets 2pm (Europe/London)", "You've hit
 *   your weekly limit · resets Nov 27, 9am";
 * - Claude subscription (1.x): "Claude AI usage limit reached|1760000000" (the reset as epoch seconds).
 * `system`/`api_error` records (print mode) are retries, not the end of the turn: not a notice.
 */
import { asNumber, asString, contentText, isObject, type Json } from "../transcript";

export interface LimitNotice {
  /** `usage`: the account's usage limit (plan or spend). `rate`: the API's rate limit. */
  kind: "usage" | "rate";
  /** When it resets, ms since the epoch, when the record gave it as a time. */
  resetsAt?: number;
  /** When it resets as the CLI wrote it ("2pm (Europe/London)"), when it gave text. */
  resetsText?: string;
  /** ms since the epoch of the record. */
  at?: number;
}

const EPOCH_FORM = /usage limit reached\|(\d{9,12})/i;
const USAGE_WORDS = /usage limit|hit your .*limit|limit reached|out of (?:extra )?usage|spend (?:cap|limit)/i;
const RESETS = /\bresets?\s+(?:at\s+)?([^·∙\n]+?)\s*(?:[·∙]|$)/i;
const REGAINS = /regain access on (\d{4})-(\d{2})-(\d{2}) at (\d{2}):(\d{2}) UTC/i;

/** The notice a record gives, or undefined when it is not a limit. */
export function limitNoticeOf(record: Json, at?: number): LimitNotice | undefined {
  if (record.type !== "assistant" || record.isApiErrorMessage !== true) return undefined;
  const message = isObject(record.message) ? record.message : {};
  const text = contentText(message.content);
  const error = asString(record.error);
  const status = asNumber(record.apiErrorStatus);
  const epoch = EPOCH_FORM.exec(text);
  if (epoch) return { kind: "usage", resetsAt: Number(epoch[1]) * 1000, at };
  const regains = REGAINS.exec(text);
  if (regains) {
    const [year, month, day, hour, minute] = regains.slice(1).map(Number) as [number, number, number, number, number];
    return { kind: "usage", resetsAt: Date.UTC(year, month - 1, day, hour, minute), at };
  }
  const usage = USAGE_WORDS.test(text) || error === "billing_error";
  if (!usage && error !== "rate_limit" && status !== 429) return undefined;
  const resets = RESETS.exec(text)?.[1]?.trim();
  return { kind: usage ? "usage" : "rate", ...(resets ? { resetsText: resets } : {}), at };
}

/** A real reply after a limit: the limit is over. */
export function endsLimit(record: Json): boolean {
  if (record.type !== "assistant" || record.isApiErrorMessage === true || !isObject(record.message)) return false;
  const model = asString(record.message.model);
  return model !== undefined && !model.startsWith("<");
}

/**
 * "Usage limit reached — resets at 14:00" (a reset later today), "… — resets at Fri 27 Nov, 09:00"
 * (another day), "… — resets 2pm (Europe/London)" (the CLI's words), "Rate limited by the API (429)".
 */
export function limitMessage(notice: LimitNotice, now: number, opts: { locale?: string; timeZone?: string } = {}): string {
  const head = notice.kind === "usage" ? "Usage limit reached" : "Rate limited by the API (429)";
  if (notice.resetsAt !== undefined) {
    const time = new Intl.DateTimeFormat(opts.locale, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: opts.timeZone }).format(
      notice.resetsAt,
    );
    const day = (ms: number) => new Intl.DateTimeFormat("en-CA", { timeZone: opts.timeZone }).format(ms);
    if (day(notice.resetsAt) === day(now)) return `${head} — resets at ${time}`;
    const date = new Intl.DateTimeFormat(opts.locale, { weekday: "short", day: "numeric", month: "short", timeZone: opts.timeZone }).format(notice.resetsAt);
    return `${head} — resets at ${date}, ${time}`;
  }
  if (notice.resetsText) return `${head} — resets ${/^\d/.test(notice.resetsText) ? "at " : ""}${notice.resetsText}`;
  return head;
}
