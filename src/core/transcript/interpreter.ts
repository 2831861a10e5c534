/**
 * Turns transcript records into normalized events, one session at a time.
 *
 * It keeps only what a live session needs: the tools in flight (to close them when their turn
 * ends), the links from sub-agents to the `Agent` call that owns them, and the ids started in the
 * session (so a repeated record never starts a tool twice). Everything else is derived by
 * pure functions from the events (see agent/agentState.ts and agent/toolCalls.ts).
 *
 * Only `user` and `assistant` records carry the conversation; bookkeeping records such as
 * `api-request-blob` hold *copies* of content and are ignored (reading them ends tools twice).
 */
import type { TokenUsage, ToolOutcome, TranscriptEvent } from "./events";
import * as shapes from "./recordShapes";
import type { Json } from "./recordShapes";
import { SubagentLinks } from "./subagentLinks";
import { ToolsInFlight } from "./toolsInFlight";
import * as recordSource from "./recordSource";
import type { RecordSource } from "./recordSource";

// Taken from the imports once (see engine/sessionEngine.ts: a call through an import per record
// runs the loader's getters where modules load one by one).
const { asArray, asNumber, asString, contentText, isObject, tagValue, timestampOf } = shapes;
const { MAIN } = recordSource;

// Where a record comes from (recordSource.ts), for the readers that hand records in.
export { MAIN, type RecordSource };

export interface InterpreterStats {
  records: number;
  ignored: number;
}

const INTERRUPT_FOR_TOOL = "[Request interrupted by user for tool use]";
const INTERRUPT = "[Request interrupted by user";

/**
 * The records' meaning and the turn's boundaries live here; the tools in flight (toolsInFlight.ts)
 * and which Agent call owns a sub-agent's records (subagentLinks.ts) each have their own file.
 */
export class TranscriptInterpreter {
  private readonly tools: ToolsInFlight;
  private readonly links: SubagentLinks;
  private lastUsageMessageId: string | undefined;
  readonly stats: InterpreterStats = { records: 0, ignored: 0 };

  /**
   * @param standalone the file is itself a sub-agent transcript read on its own (e.g. replay of
   *   `agent-*.jsonl`): its sidechain records are the agent's own conversation.
   */
  constructor(private readonly standalone = false) {
    this.links = new SubagentLinks(standalone);
    this.tools = new ToolsInFlight({ onEnded: (id) => this.links.forget(id), onAgentCallStarted: (id, input) => this.links.agentCallStarted(id, input) });
  }

  isOpen(toolId: string): boolean {
    return this.tools.isOpen(toolId);
  }

  /** A call, or any tool of the sub-agent it runs, is still in flight. */
  isOpenOrHasOpenChildren(toolId: string): boolean {
    return this.tools.isOpenOrHasOpenChildren(toolId);
  }

  /** Registers a sub-agent transcript's owner, e.g. from its `.meta.json`. */
  linkSubagent(agentId: string, parentToolId: string): void {
    this.links.link(agentId, parentToolId);
  }

  /** The Agent call that runs this sub-agent (its `agent_id`), when its link is known. */
  parentOfSubagent(agentId: string): string | undefined {
    return this.links.parentOf(agentId);
  }

  /**
   * Lines were dropped unread here (over the reader's size cap). Whatever they held is lost, so a
   * tool open now that is later closed without its result ends `unknown`, not `orphaned`.
   */
  linesDropped(count = 1): void {
    this.tools.linesDropped(count);
  }

  /** Tools of a sub-agent whose Agent call has been seen to end, awaiting their late results. */
  stragglerIds(): readonly string[] {
    return this.tools.stragglerIds();
  }

  /** Gives up on these stragglers: their results are not coming. */
  closeStragglers(ids: ReadonlySet<string>, at?: number): TranscriptEvent[] {
    return this.tools.closeStragglers(ids, at);
  }

  /**
   * Interprets one parsed record. Records that are not objects are ignored, never thrown on.
   * `out`: where the events go (and what is returned); the engine passes its batch's array.
   */
  handle(record: unknown, source: RecordSource = MAIN, out: TranscriptEvent[] = []): TranscriptEvent[] {
    this.stats.records++;
    if (!isObject(record)) {
      this.stats.ignored++;
      return out;
    }
    const at = timestampOf(record);
    switch (record.type) {
      case "assistant":
        this.onAssistant(record, source, at, out);
        break;
      case "user":
        this.onUser(record, source, at, out);
        break;
      case "system":
        if (source.kind === "main" && (record.isSidechain !== true || this.standalone)) this.onSystem(record, at, out);
        break;
      case "progress":
        this.onProgress(record, at, out);
        break;
      default:
        this.stats.ignored++;
    }
    return out;
  }

  /** The session is over: nothing of it can still be running. */
  endSession(at?: number): TranscriptEvent[] {
    const out: TranscriptEvent[] = [];
    this.tools.closeAll("orphaned", at, out);
    out.push({ kind: "sessionEnd", at });
    return out;
  }

  /**
   * The `claude` process died (kill -9, a crash) without writing an interrupt: every tool of it,
   * background sub-agents included, is over, and a running turn ends as interrupted.
   */
  processExited(turnRunning: boolean, at?: number): TranscriptEvent[] {
    const out: TranscriptEvent[] = [];
    this.tools.closeAll("interrupted", at, out);
    if (turnRunning || out.length > 0) out.push({ kind: "interrupt", forToolUse: false, at });
    return out;
  }

  // ---- assistant ---------------------------------------------------------------------------

  private onAssistant(record: Json, source: RecordSource, at: number | undefined, out: TranscriptEvent[]): void {
    const message = isObject(record.message) ? record.message : {};
    const sub = this.links.ownerOf(record, source);
    if (sub.isSubagent) {
      this.tools.start(message.content, sub.parent, at, out);
      return;
    }
    if (record.isApiErrorMessage === true) {
      this.tools.closeForeground("orphaned", at, out);
      out.push({ kind: "apiError", message: contentText(message.content) || "API error", final: true, at });
      return;
    }
    const started = this.tools.start(message.content, null, at, out);
    // The text matters only for a record that started no tool: not read at all for the others.
    const text = started === 0 ? contentText(message.content).trim() : "";
    // Whether tools hold the turn is told with the text, from the index kept here: the state's
    // reducer would otherwise look through every open tool on each reply.
    if (text) out.push({ kind: "assistantText", text, stopReason: asString(message.stop_reason) ?? null, toolsHoldTurn: this.tools.hasForegroundTools(), at });
    const usage = usageOf(message);
    if (!usage) return;
    const messageId = asString(message.id);
    if (messageId === undefined || messageId !== this.lastUsageMessageId) {
      this.lastUsageMessageId = messageId;
      out.push({ kind: "usage", usage, at });
    }
  }

  // ---- user --------------------------------------------------------------------------------

  private onUser(record: Json, source: RecordSource, at: number | undefined, out: TranscriptEvent[]): void {
    const message = isObject(record.message) ? record.message : {};
    const content = message.content;
    const sub = this.links.ownerOf(record, source);
    const hadResults = this.tools.results(content, record.toolUseResult, at, out, record.toolDenialBeforeRun === true);
    // A sub-agent's prompts and interrupts belong to its own conversation, not to the agent's turn.
    if (sub.isSubagent || hadResults) {
      if (!sub.isSubagent && hadResults) this.checkInterruptMarker(contentText(content), at, out);
      return;
    }
    const text = contentText(content);
    if (!text.trim()) {
      // A prompt can be an image (or a document) alone.
      if (record.isMeta !== true && hasAttachmentBlock(content)) {
        this.newTurn(at, out);
        out.push({ kind: "prompt", text: "", source: "user", at });
      }
      return;
    }
    if (this.checkInterruptMarker(text, at, out)) return;
    if (text.includes("<task-notification>")) {
      this.onTaskNotification(text, at, out);
      return;
    }
    const command = tagValue(text, "command-name");
    if (command !== undefined) {
      // The prompt was free for it: what the last turn left open has lost its result, as at a prompt.
      this.newTurn(at, out);
      out.push({ kind: "slashCommand", name: command, args: tagValue(text, "command-args") ?? "", at });
      return;
    }
    if (text.includes("<local-command-stdout>") || text.includes("<local-command-stderr>")) {
      this.localCommandDone(at, out);
      return;
    }
    // Injected, non-human text (caveats, reminders, the summary written by a compaction) is not
    // a prompt.
    if (record.isMeta === true || record.isCompactSummary === true || record.isVisibleInTranscriptOnly === true) return;
    this.newTurn(at, out);
    out.push({ kind: "prompt", text, source: "user", at });
  }

  private checkInterruptMarker(text: string, at: number | undefined, out: TranscriptEvent[]): boolean {
    const trimmed = text.trimStart();
    if (!trimmed.startsWith(INTERRUPT)) return false;
    const forToolUse = trimmed.startsWith(INTERRUPT_FOR_TOOL);
    this.tools.closeForeground("interrupted", at, out);
    out.push({ kind: "interrupt", forToolUse, at });
    return true;
  }

  /** A background sub-agent reported back: its `Agent` call is over, and a new turn starts. */
  private onTaskNotification(text: string, at: number | undefined, out: TranscriptEvent[]): void {
    const id = tagValue(text, "tool-use-id");
    const status = tagValue(text, "status");
    if (id && this.tools.isOpen(id)) {
      const outcome: ToolOutcome = status === "failed" ? "error" : status === "killed" ? "interrupted" : "done";
      this.tools.end(id, outcome, at, out);
    }
    this.newTurn(at, out);
    out.push({ kind: "prompt", text, source: "task-notification", at });
  }

  // ---- system ------------------------------------------------------------------------------

  private onSystem(record: Json, at: number | undefined, out: TranscriptEvent[]): void {
    switch (record.subtype) {
      case "turn_duration":
        this.tools.closeTurn("orphaned", at, out);
        out.push({ kind: "turnEnd", durationMs: asNumber(record.durationMs), at });
        return;
      case "api_error": {
        const error = isObject(record.error) ? record.error : {};
        const nested = isObject(error.error) ? error.error : {};
        out.push({
          kind: "apiError",
          status: asNumber(error.status),
          message: asString(error.message) ?? asString(nested.message) ?? asString(record.content) ?? "API error",
          retryInMs: asNumber(record.retryInMs),
          retryAttempt: asNumber(record.retryAttempt),
          maxRetries: asNumber(record.maxRetries),
          final: false,
          at,
        });
        return;
      }
      case "compact_boundary": {
        const meta = isObject(record.compactMetadata) ? record.compactMetadata : {};
        out.push({ kind: "compaction", trigger: asString(meta.trigger), at });
        return;
      }
      case "local_command":
        this.localCommandDone(at, out);
        return;
      default:
        this.stats.ignored++;
    }
  }

  /** Older CLIs (2.0.x) streamed sub-agent messages as `progress` / `agent_progress` records. */
  private onProgress(record: Json, at: number | undefined, out: TranscriptEvent[]): void {
    const data = isObject(record.data) ? record.data : undefined;
    const parent = asString(record.parentToolUseID);
    if (!data || data.type !== "agent_progress" || !parent || !isObject(data.message)) {
      this.stats.ignored++;
      return;
    }
    const inner = data.message;
    const message = isObject(inner.message) ? inner.message : {};
    if (inner.type === "assistant") this.tools.start(message.content, parent, timestampOf(inner) ?? at, out);
    else if (inner.type === "user") this.tools.results(message.content, inner.toolUseResult, timestampOf(inner) ?? at, out);
  }

  /**
   * A local command (`/clear`, `/model`…) ran: the prompt is free, so no tool of the turn is still
   * running (a background agent is). Never "waiting" with tools shown as running.
   */
  private localCommandDone(at: number | undefined, out: TranscriptEvent[]): void {
    this.tools.closeTurn("orphaned", at, out);
    out.push({ kind: "localCommandDone", at });
  }

  private newTurn(at: number | undefined, out: TranscriptEvent[]): void {
    // A tool still open when the next prompt starts lost its result (the CLI was killed).
    // Stragglers are the exception: their results are late, not lost (closeStragglers).
    this.tools.closeTurn("orphaned", at, out);
    this.links.newTurn();
  }
}

function hasAttachmentBlock(content: unknown): boolean {
  return asArray(content).some((b) => isObject(b) && (b.type === "image" || b.type === "document"));
}

function usageOf(message: Json): TokenUsage | undefined {
  const usage = message.usage;
  if (!isObject(usage)) return undefined;
  return {
    inputTokens: asNumber(usage.input_tokens) ?? 0,
    outputTokens: asNumber(usage.output_tokens) ?? 0,
    cacheReadInputTokens: asNumber(usage.cache_read_input_tokens) ?? 0,
    cacheCreationInputTokens: asNumber(usage.cache_creation_input_tokens) ?? 0,
    model: asString(message.model),
  };
}
