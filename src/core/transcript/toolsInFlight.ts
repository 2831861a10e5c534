/**
 * The tools of one session that are in flight, and how each one ends: started once per id, ended
 * by its own result (read before or after its tool_use), or closed without one (interrupted,
 * orphaned, `unknown` when its result may have been in a dropped line). A sub-agent's tools end
 * with their `Agent` call, except stragglers: their call handed back normally, their last results
 * are late, not lost.
 *
 * Every operation is O(1) in the number of open tools, or in the tools it ends (thousands can be
 * open: a scan per event was once quadratic).
 */
import * as labels from "../labels";
import type { ToolOutcome, TranscriptEvent } from "./events";
import * as shapes from "./recordShapes";
import type { Json } from "./recordShapes";
import { isAsyncLaunch, toolResultOutcome } from "./toolOutcome";
import { RecentMap } from "../util";

// Taken from the imports once (see engine/sessionEngine.ts: a call through an import per tool
// runs the loader's getters where modules load one by one).
const { isSubagentTool, toolWords } = labels;
const { asArray, asString, contentText, isObject } = shapes;

export interface OpenTool {
  name: string;
  parent: string | null;
  input: unknown;
  /** An `Agent` call whose sub-agent runs in the background: its turn ending does not end it. */
  background: boolean;
  /** `droppedLines` when it started: more since, and its result may have been in one of them. */
  droppedBefore: number;
  /** Counted in `foregroundOpen`: neither a background agent nor a tool of one. */
  foreground: boolean;
  /** An `Agent`/`Task` call (isSubagentTool), asked once at its start rather than at each step. */
  agentCall: boolean;
}

/** Told as tools come and go, for the indexes kept beside this one (subagentLinks.ts). */
export interface ToolsInFlightHooks {
  /** A tool ended (the sub-agent links forget a claimed call). */
  onEnded?: (id: string) => void;
  /** An `Agent`/`Task` call started: a sub-agent's records may claim it. */
  onAgentCallStarted?: (id: string, input: unknown) => void;
}

/** Results kept for a tool_use not read yet; the oldest go first. */
const MAX_EARLY_RESULTS = 1000;
/** Tools closed without a result whose result may still come; the oldest go first. */
const MAX_CLOSED_WITHOUT_RESULT = 10_000;

const NO_IDS: readonly string[] = Object.freeze([]);

export class ToolsInFlight {
  private readonly open = new Map<string, OpenTool>();
  /** Open tools by the Agent call that owns them (an index: ending a call never scans every tool). */
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
  private readonly earlyResults = new Map<string, { block: Json; toolUseResult: unknown; deniedBeforeRun: boolean }>();
  /**
   * Tools closed `orphaned` or `unknown` (an inference, not a record): if their result is read
   * after all (a sub-agent's file flushed late, under load), it revises the outcome. The
   * transcript is the record; what was inferred gives way to it.
   */
  private readonly closedWithoutResult = new RecentMap<string, string | null>(MAX_CLOSED_WITHOUT_RESULT);
  /** Agent/Task calls that ended in this session (kept across turns; one id per sub-agent). */
  private readonly endedAgentCalls = new Set<string>();
  /** Lines too large to read dropped so far (told by the reader's caller, see linesDropped). */
  private droppedLines = 0;
  /**
   * Open tools that hold the turn (not a background agent, not a tool of one): asked after every
   * text reply, so counted as tools come and go rather than found by a scan (30,000 open tools
   * with a text record between each: a scan per record took minutes).
   */
  private foregroundOpen = 0;

  constructor(private readonly hooks: ToolsInFlightHooks = {}) {}

  /** Whether a tool that holds the turn is open (a text reply then does not end it). */
  hasForegroundTools(): boolean {
    return this.foregroundOpen > 0;
  }

  isOpen(toolId: string): boolean {
    return this.open.has(toolId);
  }

  /** A call, or any tool of the sub-agent it runs, is still in flight. */
  isOpenOrHasOpenChildren(toolId: string): boolean {
    return this.open.has(toolId) || this.openChildren.has(toolId);
  }

  /** The open tools, oldest first. */
  entries(): IterableIterator<[string, OpenTool]> {
    return this.open.entries();
  }

  /** See TranscriptInterpreter.linesDropped. */
  linesDropped(count: number): void {
    this.droppedLines += count;
  }

  /** Starts the content's tool_use blocks (each id once) under `parent`; returns how many started. */
  start(content: unknown, parent: string | null, at: number | undefined, out: TranscriptEvent[]): number {
    let started = 0;
    for (const block of asArray(content)) {
      if (!isObject(block) || block.type !== "tool_use") continue;
      const id = asString(block.id);
      const name = asString(block.name);
      if (!id || !name) continue;
      // One lookup, not has() then add(): an id is new when adding it grew the set.
      const known = this.startedIds.size;
      if (this.startedIds.add(id).size === known) continue;
      const input = block.input;
      const foreground = parent === null || this.open.get(parent)?.background !== true;
      if (foreground) this.foregroundOpen++;
      const agentCall = isSubagentTool(name);
      this.open.set(id, { name, parent, input, background: false, droppedBefore: this.droppedLines, foreground, agentCall });
      if (agentCall) this.hooks.onAgentCallStarted?.(id, input);
      if (parent !== null) {
        const siblings = this.openChildren.get(parent);
        if (siblings) siblings.add(id);
        else this.openChildren.set(parent, new Set([id]));
      }
      const { label, action } = toolWords(name, input);
      out.push({ kind: "toolStart", id, name, input, label, action, parent, at });
      started++;
      const early = this.earlyResults.size > 0 ? this.earlyResults.get(id) : undefined;
      if (early) {
        this.earlyResults.delete(id);
        this.applyResult(id, early.block, early.toolUseResult, early.deniedBeforeRun, at, out);
      }
    }
    return started;
  }

  /**
   * Ends the tools whose tool_result blocks the content holds; true if it held any.
   * `deniedBeforeRun`: the record says the call was refused before it ran (`toolDenialBeforeRun`).
   */
  results(content: unknown, toolUseResult: unknown, at: number | undefined, out: TranscriptEvent[], deniedBeforeRun = false): boolean {
    let sawResult = false;
    for (const block of asArray(content)) {
      if (!isObject(block) || block.type !== "tool_result") continue;
      sawResult = true;
      const id = asString(block.tool_use_id);
      if (!id) continue;
      if (this.open.has(id)) this.applyResult(id, block, toolUseResult, deniedBeforeRun, at, out);
      else if (this.closedWithoutResult.has(id)) this.reviseLate(id, block, toolUseResult, deniedBeforeRun, at, out);
      else if (!this.startedIds.has(id)) this.keepEarlyResult(id, block, toolUseResult, deniedBeforeRun);
    }
    return sawResult;
  }

  /** Ends an open tool with `outcome` (a background agent's notification, for one). */
  end(id: string, outcome: ToolOutcome, at: number | undefined, out: TranscriptEvent[]): void {
    const tool = this.open.get(id);
    if (tool) this.endOpen(id, tool, outcome, at, out);
  }

  /** Ends `tool`, open under `id`; `leftInMap`: the caller takes it out of `open` itself (closeOpen: all at once). */
  private endOpen(id: string, tool: OpenTool, outcome: ToolOutcome, at: number | undefined, out: TranscriptEvent[], leftInMap = false): void {
    // A sub-agent killed with its call cannot finish its tools. One that handed back normally
    // may still have its last results in flight: the CLI writes the parent's result before it
    // flushes the sub-agent's file. Those stragglers end with their own results, or are closed
    // by closeStragglers() shortly after the turn ends (see SessionEngine).
    if (outcome === "interrupted" || outcome === "denied" || outcome === "orphaned" || outcome === "unknown") {
      const children = this.openChildren.size > 0 ? this.openChildren.get(id) : undefined;
      if (children) {
        for (const childId of [...children]) {
          const child = this.open.get(childId);
          if (child) this.end(childId, this.withoutResult(child, "orphaned"), at, out);
        }
      }
    }
    if (!leftInMap) this.open.delete(id);
    if (tool.foreground) this.foregroundOpen--;
    if (tool.parent !== null) {
      const siblings = this.openChildren.get(tool.parent);
      siblings?.delete(id);
      if (siblings?.size === 0) this.openChildren.delete(tool.parent);
    }
    // A background agent's tools still open (its stragglers) are under no background agent now.
    if (tool.background) this.setChildrenForeground(id, true);
    this.hooks.onEnded?.(id);
    if (tool.agentCall) this.endedAgentCalls.add(id);
    if (outcome === "orphaned" || outcome === "unknown") this.rememberClosedWithoutResult(id, tool.parent);
    out.push({ kind: "toolEnd", id, outcome, parent: tool.parent, at });
  }

  /** Closes every open tool, background agents included (the session ended, its process died). */
  closeAll(outcome: ToolOutcome, at: number | undefined, out: TranscriptEvent[]): void {
    this.closeOpen(out, outcome, () => true, at);
  }

  /** Closes what the turn's end takes with it: not background agents, not stragglers. */
  closeTurn(outcome: ToolOutcome, at: number | undefined, out: TranscriptEvent[]): void {
    this.closeOpen(out, outcome, (t) => !this.isBackground(t) && !this.isStraggler(t), at);
  }

  /** Closes all but background agents (an interrupt, a final API error). */
  closeForeground(outcome: ToolOutcome, at: number | undefined, out: TranscriptEvent[]): void {
    this.closeOpen(out, outcome, (t) => !this.isBackground(t), at);
  }

  /** Tools of a sub-agent whose Agent call has been seen to end, awaiting their late results. */
  stragglerIds(): readonly string[] {
    if (this.openChildren.size === 0) return NO_IDS; // the usual case, asked after every record
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
      if (tool && this.isStraggler(tool)) this.end(id, this.withoutResult(tool, "orphaned"), at, out);
    }
    return out;
  }

  private applyResult(id: string, block: Json, toolUseResult: unknown, deniedBeforeRun: boolean, at: number | undefined, out: TranscriptEvent[]): void {
    const tool = this.open.get(id);
    if (!tool) return;
    if (tool.agentCall && isAsyncLaunch(toolUseResult)) {
      tool.background = true;
      this.setForeground(tool, false);
      this.setChildrenForeground(id, false);
      out.push({ kind: "backgroundLaunch", id, at });
      return;
    }
    this.end(id, toolResultOutcome(block, toolUseResult, deniedBeforeRun), at, out);
  }

  private setForeground(tool: OpenTool, foreground: boolean): void {
    if (tool.foreground === foreground) return;
    tool.foreground = foreground;
    this.foregroundOpen += foreground ? 1 : -1;
  }

  /** The open tools of the sub-agent run by `id` (its own background ones stay as they are). */
  private setChildrenForeground(id: string, foreground: boolean): void {
    const children = this.openChildren.size > 0 ? this.openChildren.get(id) : undefined;
    if (!children) return;
    for (const childId of children) {
      const child = this.open.get(childId);
      if (child && !child.background) this.setForeground(child, foreground);
    }
  }

  /** A result for a tool already closed without one: a second toolEnd carries the recorded outcome. */
  private reviseLate(id: string, block: Json, toolUseResult: unknown, deniedBeforeRun: boolean, at: number | undefined, out: TranscriptEvent[]): void {
    const parent = this.closedWithoutResult.get(id) ?? null;
    this.closedWithoutResult.delete(id);
    out.push({ kind: "toolEnd", id, outcome: toolResultOutcome(block, toolUseResult, deniedBeforeRun), parent, at, revised: true });
  }

  private rememberClosedWithoutResult(id: string, parent: string | null): void {
    // Never there yet: a tool starts once per id (startedIds) and is closed once.
    this.closedWithoutResult.add(id, parent);
  }

  private keepEarlyResult(id: string, block: Json, toolUseResult: unknown, deniedBeforeRun: boolean): void {
    if (this.earlyResults.size >= MAX_EARLY_RESULTS) {
      const oldest = this.earlyResults.keys().next().value as string;
      this.earlyResults.delete(oldest);
    }
    // Only what the outcome is read from: not the (possibly huge) output text.
    const outcomeOnly: Json = { is_error: block.is_error, content: contentText(block.content).slice(0, 4096) };
    const kept = isAsyncLaunch(toolUseResult) ? toolUseResult : isObject(toolUseResult) ? undefined : toolUseResult;
    this.earlyResults.set(id, { block: outcomeOnly, toolUseResult: kept, deniedBeforeRun });
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

  private closeOpen(out: TranscriptEvent[], outcome: ToolOutcome, which: (t: OpenTool) => boolean, at?: number): void {
    if (this.openChildren.size === 0) {
      // No open tool is a sub-agent's (the usual case): closing one closes no other, and nothing
      // asked while closing looks at the others (which() reads the tool alone), so the closed ones
      // leave the map after the pass, all at once when they are all of it (20,000 open tools: a
      // delete per tool was a tenth of the turn's end).
      const closed: string[] = [];
      for (const [id, tool] of this.open) {
        if (!which(tool)) continue;
        this.endOpen(id, tool, this.withoutResult(tool, outcome), at, out, true);
        closed.push(id);
      }
      if (closed.length === this.open.size) this.open.clear();
      else for (const id of closed) this.open.delete(id);
      return;
    }
    // The map itself, not a copy (20,000 open tools: a copy per turn end was a fifth of its cost).
    // end() only deletes, and a Map's iteration skips entries deleted after it started.
    for (const [id, tool] of this.open) {
      if (which(tool)) this.endOpen(id, tool, this.withoutResult(tool, outcome), at, out);
    }
  }

  /** The outcome of a tool closed without its own result: `unknown` if its result may have been dropped. */
  private withoutResult(tool: OpenTool, outcome: ToolOutcome): ToolOutcome {
    return this.droppedLines > tool.droppedBefore ? "unknown" : outcome;
  }
}
