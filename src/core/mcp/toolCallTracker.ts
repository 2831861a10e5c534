/**
 * Every MCP tool call in flight, and the power to force-finish a hung one from the panel.
 *
 * `wrapHandler` registers a call, races its handler against a deferred "forced" result, and
 * removes the call in `finally`: the tracker holds only calls in flight. A handler links what it
 * waits on (an approval, a terminal command, a pending diff) through its context, so that
 * `cancelCall` can withdraw/interrupt/reject it. What `completeCall` returns is the tool's own
 * business: each tool declares its Complete (`complete`, with the hint the card shows; Arcadia's
 * in core/toolDeclarations); the tracker knows no tool by name. Resolving twice is harmless: the first result
 * wins, later ones are ignored.
 */
import { type Clock, DisposableObject, Emitter, systemClock } from "../util";
import { jsonResult, type ToolResult } from "./toolResult";

/** What force-finishing can do to the things a call waits on (implemented on the VS Code side). */
export interface LinkedResources {
  cancelApproval(approvalId: string): void;
  rejectDiff(diffId: string): void;
  /** Accept the pending diff: the handler then finishes for real. */
  acceptDiff(diffId: string): void;
  interruptTerminal(terminalId: string): void;
  /** What the command printed so far. `captured`: shell integration was there to read it. */
  partialOutput(terminalId: string): { output: string; captured: boolean };
}

export interface CallContext {
  readonly callId: string;
  /** The agent the call comes from (the per-agent header), when known: approvals carry it. */
  readonly agentId?: string;
  /** The transcript's tool_use id, when the client sent it. */
  readonly toolUseId?: string;
  /** Aborted when the call is cancelled (from the panel or by the client): stop working. */
  readonly signal: AbortSignal;
  linkApproval(approvalId: string | undefined): void;
  linkTerminal(terminalId: string | undefined): void;
  linkDiff(diffId: string | undefined): void;
}

export interface TrackedCall {
  id: string;
  toolName: string;
  /** A one-line description for the panel, e.g. the command. */
  display: string;
  startedAt: number;
  /** The transcript's tool_use id, from `_meta["claudecode/toolUseId"]` when the client sends it. */
  toolUseId?: string;
  agentId?: string;
  approvalId?: string;
  terminalId?: string;
  diffId?: string;
  /** What Complete will do for this call, shown on its button (the tool's, or the generic one). */
  completeHint: string;
}

/** What a tool's Complete did with one call. */
export type CompleteOutcome =
  /** The call answers now with what exists so far; an approval it still waits on is withdrawn. */
  | { kind: "answer"; result: ToolResult }
  /** What the handler waited on was released (e.g. its diff accepted): it answers for real. */
  | { kind: "handlerAnswers" }
  /** Nothing partial exists for this call (yet): Complete acts like Cancel. */
  | { kind: "nothingPartial" };

/** A tool's own Complete ("finish now, with what exists so far"), in the tool's declaration. */
export interface CompleteBehaviour {
  /** What Complete will do, in one line, shown on the card's Complete button. */
  hint: string;
  run(call: Readonly<TrackedCall>, resources: LinkedResources): CompleteOutcome;
}

/** Without a declared Complete, a tool has no partial result: Complete cancels the call. */
export const GENERIC_COMPLETE_HINT = "Finish now; this tool has no partial result (same as Cancel)";

/** What the tracker needs of a tool (ToolSpec has all of it). */
export interface TrackedTool<A> {
  name: string;
  handler: (args: A, context: CallContext) => Promise<ToolResult>;
  /** A one-line description of a call for the panel, e.g. the command. */
  display: (args: A) => string;
  complete?: CompleteBehaviour;
}

/** What the MCP SDK hands a tool callback besides its arguments (the parts used here). */
export interface CallExtra {
  signal?: AbortSignal;
  _meta?: Record<string, unknown>;
  /** The agent the call comes from (from the per-agent header), when known. */
  agentId?: string;
}

/** `updated`: the call linked (or unlinked) an approval, a terminal or a diff — e.g. the panel
 * shows "awaiting your review" once a diff is linked. */
export type TrackerChange =
  | { type: "started"; call: TrackedCall }
  | { type: "updated"; call: TrackedCall }
  | { type: "ended"; id: string }
  /** Complete answered it with what exists so far; the command it ran (its terminalId) may run on. */
  | { type: "completedEarly"; call: TrackedCall };

interface Entry {
  call: TrackedCall;
  /** The tool's, stored with the call when it starts. */
  complete: CompleteBehaviour | undefined;
  force: (result: ToolResult) => void;
  abort: AbortController;
}

const TOOL_USE_META = "claudecode/toolUseId";

/** Claude Code runs a reply's calls side by side, and sub-agents too: far fewer than this. */
export const DEFAULT_MAX_CALLS_PER_AGENT = 64;

export interface ToolCallTrackerOptions {
  clock?: Clock;
  /** Calls in flight per agent; past it a new call is refused at once with a tool error. */
  maxCallsPerAgent?: number;
  /**
   * Why every call of this agent is refused now, if it is (the budget's pause). The PreToolUse hook
   * denies first; this holds Arcadia's own tools where the user's settings silence hooks.
   */
  refusal?: (agentId: string) => string | undefined;
}

const NO_LINKED_RESOURCES: LinkedResources = {
  cancelApproval: () => undefined,
  rejectDiff: () => undefined,
  acceptDiff: () => undefined,
  interruptTerminal: () => undefined,
  partialOutput: () => ({ output: "", captured: false }),
};

export class ToolCallTracker extends DisposableObject {
  private readonly inFlight = new Map<string, Entry>();
  /** Calls in flight per agent (the cap's count, O(1) per call). */
  private readonly perAgent = new Map<string, number>();
  private readonly clock: Clock;
  private readonly maxCallsPerAgent: number;
  private readonly refusal: ((agentId: string) => string | undefined) | undefined;
  private readonly changed = this._register(new Emitter<TrackerChange>());
  /** A call started, linked something (approval, terminal, diff), or ended. */
  readonly onDidChange = this.changed.event;
  private nextId = 1;

  /** Without resources, calls link nothing a force-finish could act on (a server with plain tools). */
  constructor(
    private readonly resources: LinkedResources = NO_LINKED_RESOURCES,
    options: ToolCallTrackerOptions = {},
  ) {
    super();
    this.clock = options.clock ?? systemClock;
    this.maxCallsPerAgent = options.maxCallsPerAgent ?? DEFAULT_MAX_CALLS_PER_AGENT;
    this.refusal = options.refusal;
  }

  calls(): TrackedCall[] {
    return [...this.inFlight.values()].map((e) => ({ ...e.call }));
  }

  /** The tool callback to register with the MCP server. */
  wrapHandler<A>(tool: TrackedTool<A>): (args: A, extra?: CallExtra) => Promise<ToolResult> {
    const { name: toolName, handler, display } = tool;
    return async (args, extra = {}) => {
      // An agent flooding calls (each could hold an approval, a terminal, a diff) is told to wait;
      // the refused call never starts, so nothing of it reaches the panel. (Every call through
      // the server has an agent, authenticated; only in-process callers have none.)
      const agentKey = extra.agentId;
      const agentCalls = agentKey === undefined ? 0 : (this.perAgent.get(agentKey) ?? 0);
      const refusal = agentKey === undefined ? undefined : this.refusal?.(agentKey);
      if (refusal !== undefined) return jsonResult({ status: "refused", tool: toolName, message: refusal }, true);
      if (agentCalls >= this.maxCallsPerAgent) {
        return jsonResult(
          { status: "refused", tool: toolName, message: `Too many calls in flight from this agent: ${agentCalls}; wait for some to end, then call again.` },
          true,
        );
      }
      const id = `call-${this.nextId++}`;
      const toolUseId = extra._meta?.[TOOL_USE_META];
      const call: TrackedCall = {
        id,
        toolName,
        display: safeDisplay(display, args),
        startedAt: this.clock.now(),
        toolUseId: typeof toolUseId === "string" ? toolUseId : undefined,
        agentId: extra.agentId,
        completeHint: tool.complete?.hint ?? GENERIC_COMPLETE_HINT,
      };
      const abort = new AbortController();
      let force!: (result: ToolResult) => void;
      const forced = new Promise<ToolResult>((resolve) => (force = resolve));
      const entry: Entry = { call, complete: tool.complete, force, abort };
      this.inFlight.set(id, entry);
      if (agentKey !== undefined) this.perAgent.set(agentKey, agentCalls + 1);
      this.emit({ type: "started", call: { ...call } });

      // The client gave up (Escape in Claude Code): the handler must stop, the call is over.
      // What it waited on goes too: a diff left open could still be accepted and written for nobody.
      const onClientAbort = () => {
        if (this.inFlight.get(id) !== entry) return;
        this.withdraw(entry.call);
        this.finish(entry, cancelledResult(toolName, "cancelled by the client"));
      };
      if (extra.signal?.aborted) onClientAbort();
      else extra.signal?.addEventListener("abort", onClientAbort, { once: true });

      const link = (key: "approvalId" | "terminalId" | "diffId", value: string | undefined) => {
        if (call[key] === value) return;
        call[key] = value;
        // A call already force-finished is no longer anyone's business.
        if (this.inFlight.get(id) === entry) this.emit({ type: "updated", call: { ...call } });
      };
      const context: CallContext = {
        callId: id,
        agentId: call.agentId,
        toolUseId: call.toolUseId,
        signal: abort.signal,
        linkApproval: (approvalId) => link("approvalId", approvalId),
        linkTerminal: (terminalId) => link("terminalId", terminalId),
        linkDiff: (diffId) => link("diffId", diffId),
      };
      try {
        // A handler that throws synchronously is treated like one that rejects.
        const running = Promise.resolve().then(() => handler(args, context));
        return await Promise.race([running, forced]);
      } finally {
        extra.signal?.removeEventListener("abort", onClientAbort);
        this.forget(entry);
      }
    };
  }

  /**
   * Cancel from the panel: withdraw a linked approval, reject a pending diff, interrupt a linked
   * terminal command, then answer the client "cancelled". False if the call is not in flight.
   */
  cancelCall(id: string, reason = "cancelled from the Arcadia panel"): boolean {
    const entry = this.inFlight.get(id);
    if (!entry) return false;
    this.withdraw(entry.call);
    this.finish(entry, cancelledResult(entry.call.toolName, reason));
    return true;
  }

  /** Cancels what else a call waits on: its approval, its diff, its command. */
  private withdraw(call: TrackedCall): void {
    if (call.approvalId) this.resources.cancelApproval(call.approvalId);
    if (call.diffId) this.resources.rejectDiff(call.diffId);
    if (call.terminalId) this.resources.interruptTerminal(call.terminalId);
  }

  /**
   * Complete from the panel, with what exists so far: whatever the call's tool declared (e.g. a
   * command's output so far, a write's diff accepted); for a tool that declared nothing, or a call
   * with nothing partial yet, the same as Cancel.
   */
  completeCall(id: string): boolean {
    const entry = this.inFlight.get(id);
    if (!entry) return false;
    const outcome = entry.complete?.run({ ...entry.call }, this.resources) ?? { kind: "nothingPartial" };
    switch (outcome.kind) {
      case "handlerAnswers":
        return true;
      case "answer":
        // Nothing may run or be written after the call answered: a waiting approval goes.
        if (entry.call.approvalId) this.resources.cancelApproval(entry.call.approvalId);
        if (entry.call.terminalId) this.emit({ type: "completedEarly", call: { ...entry.call } });
        this.finish(entry, outcome.result);
        return true;
      case "nothingPartial":
        return this.cancelCall(id, "completed from the Arcadia panel (this tool has no partial result)");
    }
  }

  /** Force-finished: out of "in flight" at once, whatever the handler still does. */
  private finish(entry: Entry, result: ToolResult): void {
    this.forget(entry);
    entry.abort.abort();
    entry.force(result);
  }

  private forget(entry: Entry): void {
    if (this.inFlight.get(entry.call.id) !== entry) return;
    this.inFlight.delete(entry.call.id);
    const agentKey = entry.call.agentId;
    if (agentKey !== undefined) {
      const left = (this.perAgent.get(agentKey) ?? 1) - 1;
      if (left > 0) this.perAgent.set(agentKey, left);
      else this.perAgent.delete(agentKey);
    }
    this.emit({ type: "ended", id: entry.call.id });
  }

  private emit(change: TrackerChange): void {
    this.changed.fire(change);
  }
}

function cancelledResult(tool: string, reason: string): ToolResult {
  return jsonResult({ status: "cancelled", tool, message: `The ${tool} call was ${reason}.` }, true);
}

function safeDisplay<A>(display: (args: A) => string, args: A): string {
  try {
    return display(args);
  } catch {
    return "";
  }
}
