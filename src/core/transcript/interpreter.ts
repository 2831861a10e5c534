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
import { isSubagentTool, toolLabel } from "../agent/labels";
import type { TokenUsage, ToolOutcome, TranscriptEvent } from "./events";
import {
  asArray,
  asNumber,
  asString,
  contentText,
  isObject,
  type Json,
  tagValue,
  timestampOf,
} from "./recordShapes";
import { isAsyncLaunch, toolResultOutcome } from "./toolOutcome";

/** Where a record comes from: the session's own file, or a sub-agent transcript. */
export type RecordSource =
  | { kind: "main" }
  | { kind: "subagent"; agentId: string; parentToolId: string | null; prompt?: string };

export const MAIN: RecordSource = { kind: "main" };

interface OpenTool {
  name: string;
  parent: string | null;
  input: unknown;
  /** An `Agent` call whose sub-agent runs in the background: its turn ending does not end it. */
  background: boolean;
}

export interface InterpreterStats {
  records: number;
  ignored: number;
}

/** Results kept for a tool_use not read yet; the oldest go first. */
const MAX_EARLY_RESULTS = 1000;
const INTERRUPT_FOR_TOOL = "[Request interrupted by user for tool use]";
const INTERRUPT = "[Request interrupted by user";

export class TranscriptInterpreter {
  private readonly open = new Map<string, OpenTool>();
  /**
   * Open tools by the Agent call that owns them. An index, so that ending a call, or asking after
   * stragglers, never scans every open tool (thousands can be open: that was quadratic).
   */
  private readonly openChildren = new Map<string, Set<string>>();
  /**
   * Every tool_use id started in this session. One id is one call: a tool_use whose id was seen
   * before (open or ended, in any turn) is a copy of that call, not a new one, and is ignored.
   * Ids are unique per call at the API, so a repeat can only be a record written twice (a
   * resumed or re-written conversation, old CLIs' progress copies). Ignoring it, rather than
   * restarting the call, keeps one rule for every consumer: each id starts at most once, so the
   * call list (deriveToolCalls) and the live state (reduceAgent) can never disagree about it.
   */
  private readonly startedIds = new Set<string>();
  /**
   * Results read before their tool_use (a file written out of order): the tool ends as soon as
   * its tool_use arrives, instead of running forever. Bounded: results of tools started before a
   * restore window never get their tool_use, and must not pile up.
   */
  private readonly earlyResults = new Map<string, { block: Json; toolUseResult: unknown }>();
  /** Sub-agent (agentId or inline chain) → the Agent call that owns it. */
  private readonly subagentParents = new Map<string, string | null>();
  /** Inline sidechain records of old CLIs: record uuid → owning Agent call. */
  private readonly sidechainChain = new Map<string, string | null>();
  private readonly claimedAgentCalls = new Set<string>();
  /** Agent/Task calls that ended in this session (kept across turns; one id per sub-agent). */
  private readonly endedAgentCalls = new Set<string>();
  private lastUsageMessageId: string | undefined;
  readonly stats: InterpreterStats = { records: 0, ignored: 0 };

  /**
   * @param standalone the file is itself a sub-agent transcript read on its own (e.g. replay of
   *   `agent-*.jsonl`): its sidechain records are the agent's own conversation.
   */
  constructor(private readonly standalone = false) {}

  isOpen(toolId: string): boolean {
    return this.open.has(toolId);
  }

  /** A call, or any tool of the sub-agent it runs, is still in flight. */
  isOpenOrHasOpenChildren(toolId: string): boolean {
    return this.open.has(toolId) || this.openChildren.has(toolId);
  }

  /** Registers a sub-agent transcript's owner, e.g. from its `.meta.json`. */
  linkSubagent(agentId: string, parentToolId: string): void {
    this.subagentParents.set(agentId, parentToolId);
    this.claimedAgentCalls.add(parentToolId);
  }

  /** Interprets one parsed record. Records that are not objects are ignored, never thrown on. */
  handle(record: unknown, source: RecordSource = MAIN): TranscriptEvent[] {
    this.stats.records++;
    if (!isObject(record)) {
      this.stats.ignored++;
      return [];
    }
    const out: TranscriptEvent[] = [];
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
    this.closeOpen(out, "orphaned", () => true, at);
    out.push({ kind: "sessionEnd", at });
    return out;
  }

  /**
   * The `claude` process died (kill -9, a crash) without writing an interrupt: every tool of it,
   * background sub-agents included, is over, and a running turn ends as interrupted.
   */
  processExited(turnRunning: boolean, at?: number): TranscriptEvent[] {
    const out: TranscriptEvent[] = [];
    this.closeOpen(out, "interrupted", () => true, at);
    if (turnRunning || out.length > 0) out.push({ kind: "interrupt", forToolUse: false, at });
    return out;
  }

  // ---- assistant ---------------------------------------------------------------------------

  private onAssistant(record: Json, source: RecordSource, at: number | undefined, out: TranscriptEvent[]): void {
    const message = isObject(record.message) ? record.message : {};
    const sub = this.subagentOwner(record, source);
    if (sub.isSubagent) {
      this.startTools(message.content, sub.parent, at, out);
      return;
    }
    if (record.isApiErrorMessage === true) {
      this.closeOpen(out, "orphaned", (t) => !this.isBackground(t), at);
      out.push({ kind: "apiError", message: contentText(message.content) || "API error", final: true, at });
      return;
    }
    const started = this.startTools(message.content, null, at, out);
    const text = contentText(message.content).trim();
    if (text && started === 0) {
      out.push({ kind: "assistantText", text, stopReason: asString(message.stop_reason) ?? null, at });
    }
    const usage = usageOf(message);
    const messageId = asString(message.id);
    if (usage && (messageId === undefined || messageId !== this.lastUsageMessageId)) {
      this.lastUsageMessageId = messageId;
      out.push({ kind: "usage", usage, at });
    }
  }

  private startTools(content: unknown, parent: string | null, at: number | undefined, out: TranscriptEvent[]): number {
    let started = 0;
    for (const block of asArray(content)) {
      if (!isObject(block) || block.type !== "tool_use") continue;
      const id = asString(block.id);
      const name = asString(block.name);
      if (!id || !name || this.startedIds.has(id)) continue;
      this.startedIds.add(id);
      this.open.set(id, { name, parent, input: block.input, background: false });
      if (parent !== null) {
        const siblings = this.openChildren.get(parent);
        if (siblings) siblings.add(id);
        else this.openChildren.set(parent, new Set([id]));
      }
      out.push({ kind: "toolStart", id, name, input: block.input, label: toolLabel(name, block.input), parent, at });
      started++;
      const early = this.earlyResults.get(id);
      if (early) {
        this.earlyResults.delete(id);
        this.applyResult(id, early.block, early.toolUseResult, at, out);
      }
    }
    return started;
  }

  // ---- user --------------------------------------------------------------------------------

  private onUser(record: Json, source: RecordSource, at: number | undefined, out: TranscriptEvent[]): void {
    const message = isObject(record.message) ? record.message : {};
    const content = message.content;
    const sub = this.subagentOwner(record, source);
    const hadResults = this.endTools(content, record.toolUseResult, at, out);
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
      out.push({ kind: "slashCommand", name: command, args: tagValue(text, "command-args") ?? "", at });
      return;
    }
    if (text.includes("<local-command-stdout>") || text.includes("<local-command-stderr>")) {
      out.push({ kind: "localCommandDone", at });
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
    this.closeOpen(out, "interrupted", (t) => !this.isBackground(t), at);
    out.push({ kind: "interrupt", forToolUse, at });
    return true;
  }

  /** A background sub-agent reported back: its `Agent` call is over, and a new turn starts. */
  private onTaskNotification(text: string, at: number | undefined, out: TranscriptEvent[]): void {
    const id = tagValue(text, "tool-use-id");
    const status = tagValue(text, "status");
    if (id && this.open.has(id)) {
      const outcome: ToolOutcome = status === "failed" ? "error" : status === "killed" ? "interrupted" : "done";
      this.endTool(id, outcome, at, out);
    }
    this.newTurn(at, out);
    out.push({ kind: "prompt", text, source: "task-notification", at });
  }

  private endTools(content: unknown, toolUseResult: unknown, at: number | undefined, out: TranscriptEvent[]): boolean {
    let sawResult = false;
    for (const block of asArray(content)) {
      if (!isObject(block) || block.type !== "tool_result") continue;
      sawResult = true;
      const id = asString(block.tool_use_id);
      if (!id) continue;
      if (this.open.has(id)) this.applyResult(id, block, toolUseResult, at, out);
      else if (!this.startedIds.has(id)) this.keepEarlyResult(id, block, toolUseResult);
    }
    return sawResult;
  }

  private applyResult(id: string, block: Json, toolUseResult: unknown, at: number | undefined, out: TranscriptEvent[]): void {
    const tool = this.open.get(id);
    if (!tool) return;
    if (isSubagentTool(tool.name) && isAsyncLaunch(toolUseResult)) {
      tool.background = true;
      out.push({ kind: "backgroundLaunch", id, at });
      return;
    }
    this.endTool(id, toolResultOutcome(block, toolUseResult), at, out);
  }

  private keepEarlyResult(id: string, block: Json, toolUseResult: unknown): void {
    if (this.earlyResults.size >= MAX_EARLY_RESULTS) {
      const oldest = this.earlyResults.keys().next().value as string;
      this.earlyResults.delete(oldest);
    }
    // Only what the outcome is read from: not the (possibly huge) output text.
    const outcomeOnly: Json = { is_error: block.is_error, content: contentText(block.content).slice(0, 4096) };
    this.earlyResults.set(id, { block: outcomeOnly, toolUseResult: isAsyncLaunch(toolUseResult) ? toolUseResult : isObject(toolUseResult) ? undefined : toolUseResult });
  }

  // ---- system ------------------------------------------------------------------------------

  private onSystem(record: Json, at: number | undefined, out: TranscriptEvent[]): void {
    switch (record.subtype) {
      case "turn_duration":
        this.closeOpen(out, "orphaned", (t) => !this.isBackground(t) && !this.isStraggler(t), at);
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
        out.push({ kind: "localCommandDone", at });
        return;
      default:
        this.stats.ignored++;
    }
  }

  // ---- sub-agents --------------------------------------------------------------------------

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
    if (inner.type === "assistant") this.startTools(message.content, parent, timestampOf(inner) ?? at, out);
    else if (inner.type === "user") this.endTools(message.content, inner.toolUseResult, timestampOf(inner) ?? at, out);
  }

  /**
   * Whether a record belongs to a sub-agent, and which `Agent` call owns it. Current CLIs write
   * sub-agents to their own files (linked by `.meta.json`); CLIs before 2.0 wrote them inline
   * with `isSidechain: true`, linked only by the prompt text they were given.
   */
  private subagentOwner(record: Json, source: RecordSource): { isSubagent: boolean; parent: string | null } {
    if (source.kind === "subagent") {
      const known = source.parentToolId ?? this.subagentParents.get(source.agentId);
      if (known !== undefined && known !== null) return { isSubagent: true, parent: known };
      const claimed = this.claimAgentCall(source.prompt ?? promptOf(record));
      if (claimed) this.subagentParents.set(source.agentId, claimed);
      return { isSubagent: true, parent: claimed };
    }
    if (record.isSidechain !== true || this.standalone) return { isSubagent: false, parent: null };
    const uuid = asString(record.uuid);
    const parentUuid = asString(record.parentUuid);
    let parent: string | null;
    if (parentUuid !== undefined && this.sidechainChain.has(parentUuid)) {
      parent = this.sidechainChain.get(parentUuid) ?? null;
    } else {
      parent = this.claimAgentCall(promptOf(record));
    }
    if (uuid) this.sidechainChain.set(uuid, parent);
    return { isSubagent: true, parent };
  }

  /** The open Agent call given exactly this prompt, else the oldest open one not yet claimed. */
  private claimAgentCall(prompt: string | undefined): string | null {
    let fallback: string | null = null;
    for (const [id, tool] of this.open) {
      if (!isSubagentTool(tool.name) || this.claimedAgentCalls.has(id)) continue;
      const given = isObject(tool.input) ? asString(tool.input.prompt) : undefined;
      if (prompt !== undefined && given !== undefined && given.trim() === prompt.trim()) {
        this.claimedAgentCalls.add(id);
        return id;
      }
      fallback ??= id;
    }
    if (fallback) this.claimedAgentCalls.add(fallback);
    return fallback;
  }

  // ---- closing -----------------------------------------------------------------------------

  /** Tools of a sub-agent whose Agent call has been seen to end, awaiting their late results. */
  stragglerIds(): string[] {
    const ids: string[] = [];
    for (const [parent, children] of this.openChildren) {
      if (this.open.has(parent) || !this.endedAgentCalls.has(parent)) continue;
      ids.push(...children);
    }
    return ids;
  }

  /** Gives up on these stragglers: their results are not coming. */
  closeStragglers(ids: ReadonlySet<string>, at?: number): TranscriptEvent[] {
    const out: TranscriptEvent[] = [];
    for (const id of ids) {
      const tool = this.open.get(id);
      if (tool && this.isStraggler(tool)) this.endTool(id, "orphaned", at, out);
    }
    return out;
  }

  /**
   * Its Agent call has *ended* (not merely "is not open": a sub-agent's first records can come
   * before its parent's Agent record is read).
   */
  private isStraggler(tool: OpenTool): boolean {
    return tool.parent !== null && !this.open.has(tool.parent) && this.endedAgentCalls.has(tool.parent);
  }

  private isBackground(tool: OpenTool): boolean {
    if (tool.background) return true;
    const owner = tool.parent ? this.open.get(tool.parent) : undefined;
    return owner?.background === true;
  }

  private endTool(id: string, outcome: ToolOutcome, at: number | undefined, out: TranscriptEvent[]): void {
    const tool = this.open.get(id);
    if (!tool) return;
    // A sub-agent killed with its call cannot finish its tools. One that handed back normally
    // may still have its last results in flight: the CLI writes the parent's result before it
    // flushes the sub-agent's file. Those stragglers end with their own results, or are closed
    // by closeStragglers() shortly after the turn ends (see SessionEngine).
    if (outcome === "interrupted" || outcome === "orphaned") {
      const children = this.openChildren.get(id);
      if (children) for (const childId of [...children]) this.endTool(childId, "orphaned", at, out);
    }
    this.open.delete(id);
    if (tool.parent !== null) {
      const siblings = this.openChildren.get(tool.parent);
      siblings?.delete(id);
      if (siblings?.size === 0) this.openChildren.delete(tool.parent);
    }
    this.claimedAgentCalls.delete(id);
    if (isSubagentTool(tool.name)) this.endedAgentCalls.add(id);
    out.push({ kind: "toolEnd", id, outcome, parent: tool.parent, at });
  }

  private closeOpen(out: TranscriptEvent[], outcome: ToolOutcome, which: (t: OpenTool) => boolean, at?: number): void {
    for (const [id, tool] of [...this.open]) {
      if (this.open.has(id) && which(tool)) this.endTool(id, outcome, at, out);
    }
  }

  private newTurn(at: number | undefined, out: TranscriptEvent[]): void {
    // A tool still open when the next prompt starts lost its result (the CLI was killed).
    // Stragglers are the exception: their results are late, not lost (closeStragglers).
    this.closeOpen(out, "orphaned", (t) => !this.isBackground(t) && !this.isStraggler(t), at);
    this.sidechainChain.clear();
  }
}

function hasAttachmentBlock(content: unknown): boolean {
  return asArray(content).some((b) => isObject(b) && (b.type === "image" || b.type === "document"));
}

function promptOf(record: Json): string | undefined {
  const message = isObject(record.message) ? record.message : undefined;
  if (!message || record.type !== "user") return undefined;
  const text = contentText(message.content);
  return text || undefined;
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
