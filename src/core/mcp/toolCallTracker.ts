/**
 * Every MCP tool call in flight, and the power to force-finish a hung one from the panel.
 *
 * `wrapHandler` registers a call, races its handler against a deferred "forced" result, and
 * removes the call in `finally`: the tracker holds only calls in flight. A handler links what it
 * waits on (an approval, a terminal command, a pending diff) through its context, so that
 * `cancelCall` can withdraw/interrupt/reject it and `completeCall` can return what exists so far.
 * Resolving twice is harmless: the first result wins, later ones are ignored.
 */
import { type Clock, systemClock } from "../util/clock";
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
export type TrackerChange = { type: "started"; call: TrackedCall } | { type: "updated"; call: TrackedCall } | { type: "ended"; id: string };

type Handler<A> = (args: A, context: CallContext) => Promise<ToolResult>;

interface Entry {
  call: TrackedCall;
  force: (result: ToolResult) => void;
  abort: AbortController;
}

const TOOL_USE_META = "claudecode/toolUseId";

const NO_LINKED_RESOURCES: LinkedResources = {
  cancelApproval: () => undefined,
  rejectDiff: () => undefined,
  acceptDiff: () => undefined,
  interruptTerminal: () => undefined,
  partialOutput: () => ({ output: "", captured: false }),
};

export class ToolCallTracker {
  private readonly inFlight = new Map<string, Entry>();
  private readonly listeners = new Set<(change: TrackerChange) => void>();
  private nextId = 1;

  /** Without resources, calls link nothing a force-finish could act on (a server with plain tools). */
  constructor(
    private readonly resources: LinkedResources = NO_LINKED_RESOURCES,
    private readonly clock: Clock = systemClock,
  ) {}

  calls(): TrackedCall[] {
    return [...this.inFlight.values()].map((e) => ({ ...e.call }));
  }

  onChange(listener: (change: TrackerChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The tool callback to register with the MCP server. */
  wrapHandler<A>(toolName: string, handler: Handler<A>, display: (args: A) => string): (args: A, extra?: CallExtra) => Promise<ToolResult> {
    return async (args, extra = {}) => {
      const id = `call-${this.nextId++}`;
      const toolUseId = extra._meta?.[TOOL_USE_META];
      const call: TrackedCall = {
        id,
        toolName,
        display: safeDisplay(display, args),
        startedAt: this.clock.now(),
        toolUseId: typeof toolUseId === "string" ? toolUseId : undefined,
        agentId: extra.agentId,
      };
      const abort = new AbortController();
      let force!: (result: ToolResult) => void;
      const forced = new Promise<ToolResult>((resolve) => (force = resolve));
      const entry: Entry = { call, force, abort };
      this.inFlight.set(id, entry);
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
   * Complete from the panel, with what exists so far: a command's partial output; a write's pending
   * diff accepted (the handler then finishes for real); otherwise the same as Cancel.
   */
  completeCall(id: string): boolean {
    const entry = this.inFlight.get(id);
    if (!entry) return false;
    const { call } = entry;
    if (call.toolName === "execute_command" && call.terminalId) {
      const { output, captured } = this.resources.partialOutput(call.terminalId);
      this.finish(
        entry,
        jsonResult({
          status: "force-completed",
          exit_code: null,
          output,
          output_captured: captured,
          message: "Force-completed from the Arcadia panel with the output so far; the command may still be running in its terminal.",
        }),
      );
      return true;
    }
    if (call.toolName === "write_file" || call.toolName === "apply_diff") {
      if (call.diffId) {
        // Accepting lets the handler write the file and answer with its real result.
        this.resources.acceptDiff(call.diffId);
        return true;
      }
      // A path approval may still be waiting: nothing will be written, so it goes.
      this.withdraw(call);
      this.finish(entry, jsonResult({ status: "force-completed", message: "Force-completed from the Arcadia panel before any change was proposed; nothing was written." }));
      return true;
    }
    return this.cancelCall(id, "completed from the Arcadia panel (this tool has no partial result)");
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
    this.emit({ type: "ended", id: entry.call.id });
  }

  private emit(change: TrackerChange): void {
    for (const listener of this.listeners) listener(change);
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
