// The script a test gives the scripted model server, and the pure logic that picks a reply for a
// request. Kept apart from the HTTP code so it can be unit-tested and reasoned about on its own.

/** One model reply (or a run of failures before it). */
export type Step =
  /** A text reply; stop_reason end_turn. */
  | { text: string; delayMs?: number; blockDelayMs?: number }
  /** An optional text block, then tool_use blocks; stop_reason tool_use. */
  | { tools: ToolCall[]; text?: string; delayMs?: number; blockDelayMs?: number }
  /** Fail `times` times (Anthropic error JSON, retry-after: 0), then answer `then`. `message`: the
   * error's text (default "Scripted <status> error"), e.g. the API's usage-limit sentence. */
  | { httpError: 400 | 429 | 500 | 529; times: number; then: Step; headers?: Record<string, string>; message?: string };

// delayMs: pause after message_start (a slow first token). blockDelayMs: pause after each content
// block and before message_delta, like a real stream where blocks arrive over time; it shows
// what the CLI writes before it knows the stop_reason.

export interface ToolCall {
  name: string;
  input: unknown;
  id?: string;
}

/** `match` is a substring of the conversation's FIRST user message text ("" matches any). */
export interface Conversation {
  match: string;
  /** Match the LATEST prompt (a user message with text of its own) instead of the first: a reply
   * to a request typed into a running conversation, e.g. "Please rebase your branch…". Implies
   * steps counted from that prompt. */
  matchLatestPrompt?: boolean;
  /**
   * Also a substring of the whole request (its system prompt names the CLI's working folder), so
   * agents given the same prompt in different folders (a race's worktrees) get different replies.
   */
  requestIncludes?: string;
  steps: Step[];
  /** Steps restart at every prompt: the step index counts assistant messages since the latest
   * prompt instead of since the start, so a conversation can answer any number of turns (the
   * demo model). Default: one script for the whole conversation. */
  perPrompt?: boolean;
}

export interface Script {
  conversations: Conversation[];
  fallbackText?: string;
  /**
   * The `usage` each reply reports. `fixed` (default): 100 input tokens, what tests expect.
   * `fromRequestSize`: the request's size in tokens (~4 bytes each), mostly as prompt-cache reads,
   * as the real API roughly reports it, so a context gauge moves as a conversation grows (the demo).
   */
  usage?: "fixed" | "fromRequestSize";
  /**
   * Slow replies for requests whose LAST user message contains `match` (whatever the reply is:
   * a scripted step, a fallback or a side request), e.g. the summary request of `/compact`, so a
   * test can see what the CLI shows while it waits.
   */
  slowReplies?: { match: string; delayMs: number }[];
  /**
   * Replies to the CLI's side queries that carry the whole conversation and its tools (a forked
   * query: the away summary's "The user stepped away…" recap request, CLI 2.1.330), chosen by their
   * LAST user message containing `match`, before any conversation is looked at: without them such a
   * request matches the conversation and, in a `perPrompt` one, gets step 0 as if it were a prompt.
   */
  sideQueries?: { match: string; step: Exclude<Step, { httpError: unknown }> }[];
}

/** The text of the request's last user message (reminders included). */
export function lastUserText(body: MessagesRequestBody): string {
  const last = [...(body.messages ?? [])].reverse().find((m) => m.role === "user");
  return last ? contentText(last.content) : "";
}

/** The delay a `slowReplies` rule asks for this request, if any. */
export function slowReplyDelay(script: Script, body: MessagesRequestBody): number | undefined {
  if (!script.slowReplies?.length) return undefined;
  const text = lastUserText(body);
  return script.slowReplies.find((rule) => text.includes(rule.match))?.delayMs;
}

/** The parts of a Messages API request body that reply selection looks at. */
export interface MessagesRequestBody {
  model?: string;
  messages?: { role: string; content: unknown }[];
  tools?: unknown[];
  stream?: boolean;
  output_config?: { format?: { type?: string; schema?: unknown } };
  [key: string]: unknown;
}

/** Text of a message's content: a string, or the text blocks of an array. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b: unknown) => (b && typeof b === "object" && (b as { type?: unknown }).type === "text" ? String((b as { text?: unknown }).text ?? "") : ""))
    .join("\n");
}

/** Drops `<system-reminder>…</system-reminder>` noise the CLI injects into user messages, so a
 * conversation's `match` cannot hit text the CLI added (CLAUDE.md, skills, dates…). */
export function stripReminders(text: string): string {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "");
}

/** The first user message's text, reminders removed. 2.1.330 may put `role: "system"` entries
 * inside `messages`; they are skipped because only `user` messages count. */
export function firstUserText(body: MessagesRequestBody): string {
  const first = (body.messages ?? []).find((m) => m.role === "user");
  return first ? stripReminders(contentText(first.content)) : "";
}

/** Number of assistant messages already in the request = index of the step to answer with.
 * Stateless: a retried request gets the same step. */
export function assistantCount(body: MessagesRequestBody): number {
  return (body.messages ?? []).filter((m) => m.role === "assistant").length;
}

/** The latest prompt's text: the last user message with text of its own (reminders removed). */
export function latestPromptText(body: MessagesRequestBody): string {
  const messages = body.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "user") continue;
    const text = stripReminders(contentText(m.content));
    if (text.trim() !== "") return text;
  }
  return "";
}

/** The folder the CLI works in, as its system prompt states it ("Primary working directory: …"),
 * wherever the request carries it (system blocks or a reminder). */
export function workingDirectory(body: MessagesRequestBody): string | undefined {
  const found = /Primary working directory: ([^\n"\\]+)/.exec(JSON.stringify([body.system, body.messages]));
  return found?.[1]?.trim();
}

/** `{{cwd}}` in a step's tool inputs replaced by the requester's working directory, so one script
 * serves agents in different folders (a worktree agent reads its own files, not the main
 * checkout's). Left as is when the request names no folder. */
export function withWorkingDirectory<S extends Exclude<Step, { httpError: unknown }>>(step: S, cwd: string | undefined): S {
  if (cwd === undefined || !("tools" in step)) return step;
  const tools = step.tools.map((t) => ({
    ...t,
    input: JSON.parse(JSON.stringify(t.input ?? {}).replaceAll("{{cwd}}", JSON.stringify(cwd).slice(1, -1))) as unknown,
  }));
  return { ...step, tools };
}

/** Assistant messages since the latest prompt: a user message with text of its own (reminders
 * aside), not just tool results. The step index of a `perPrompt` conversation. */
export function assistantCountSincePrompt(body: MessagesRequestBody): number {
  const messages = body.messages ?? [];
  let n = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "assistant") n++;
    else if (m.role === "user" && stripReminders(contentText(m.content)).trim() !== "") break;
  }
  return n;
}

export type Selection =
  | { kind: "side"; reason: string }
  | { kind: "sideQuery"; index: number; step: Exclude<Step, { httpError: unknown }> }
  | { kind: "step"; conversation: number; index: number; step: Step }
  | { kind: "fallback"; reason: string };

/** Picks what to answer. Side requests (no `tools`: titles, summaries, JSON-schema calls) never
 * consume a scripted step, so they cannot shift the main conversation's script. */
export function selectReply(script: Script, body: MessagesRequestBody): Selection {
  const sideQuery = script.sideQueries?.findIndex((q) => lastUserText(body).includes(q.match)) ?? -1;
  if (sideQuery >= 0) return { kind: "sideQuery", index: sideQuery, step: script.sideQueries![sideQuery]!.step };
  if (!Array.isArray(body.tools) || body.tools.length === 0) {
    return { kind: "side", reason: body.output_config?.format ? "json-schema" : "no-tools" };
  }
  const first = firstUserText(body);
  const latest = latestPromptText(body);
  let whole: string | undefined;
  const inRequest = (part: string) => (whole ??= JSON.stringify(body)).includes(part);
  const matches = (c: Conversation) => (c.matchLatestPrompt ? latest : first).includes(c.match) && (!c.requestIncludes || inRequest(c.requestIncludes));
  const conversation = script.conversations.findIndex(matches);
  if (conversation < 0) return { kind: "fallback", reason: "no conversation matched" };
  const { steps, perPrompt, matchLatestPrompt } = script.conversations[conversation]!;
  const index = perPrompt || matchLatestPrompt ? assistantCountSincePrompt(body) : assistantCount(body);
  const step = steps[index];
  if (!step) return { kind: "fallback", reason: `conversation ${conversation} has no step ${index}` };
  return { kind: "step", conversation, index, step };
}

/** A value that satisfies a (simple) JSON schema, for side requests with `output_config.format`. */
export function exampleForSchema(schema: unknown, depth = 0): unknown {
  if (!schema || typeof schema !== "object" || depth > 8) return null;
  const s = schema as Record<string, unknown>;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const anyOf = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length > 0) return exampleForSchema(anyOf[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const props = (s.properties ?? {}) as Record<string, unknown>;
      for (const [key, sub] of Object.entries(props)) out[key] = exampleForSchema(sub, depth + 1);
      return out;
    }
    case "array":
      return [];
    case "string":
      return "Scripted title";
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return s.properties ? exampleForSchema({ ...s, type: "object" }, depth + 1) : null;
  }
}
