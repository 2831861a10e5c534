/**
 * The list of tool calls, derived from events by pure functions: a call is its request
 * (`toolStart`) plus its result (`toolEnd`). Nothing here is stored by a controller; callers
 * fold the events they have (a turn, a transcript) into rows whenever they need them.
 */
import type { ToolOutcome, TranscriptEvent } from "../transcript";

export interface ToolCall {
  id: string;
  name: string;
  label: string;
  /** The bare deed, for after a verdict: "Denied: touch x" (core/labels/toolLabels.ts). */
  action: string;
  parent: string | null;
  outcome: ToolOutcome | "running";
  background: boolean;
  startedAt?: number;
  endedAt?: number;
  /** A Bash call that asked to run outside Claude Code's sandbox (`dangerouslyDisableSandbox: true`). */
  leavesSandbox?: true;
}

/**
 * Folds one event into `calls` (keyed by id, in order of first appearance) and returns it.
 * The accumulator is owned by the caller; the fold itself has no other state.
 */
export function foldToolCall(calls: Map<string, ToolCall>, event: TranscriptEvent): Map<string, ToolCall> {
  switch (event.kind) {
    case "toolStart":
      if (!calls.has(event.id)) {
        calls.set(event.id, {
          id: event.id,
          name: event.name,
          label: event.label,
          action: event.action,
          parent: event.parent,
          outcome: "running",
          background: false,
          startedAt: event.at,
          ...(asksToLeaveSandbox(event.name, event.input) ? { leavesSandbox: true as const } : {}),
        });
      }
      break;
    case "toolEnd": {
      const call = calls.get(event.id);
      if (!call) break;
      const inferred = call.outcome === "orphaned" || call.outcome === "unknown";
      if (call.outcome === "running" || (event.revised && inferred)) calls.set(event.id, { ...call, outcome: event.outcome, endedAt: event.at });
      break;
    }
    case "backgroundLaunch": {
      const call = calls.get(event.id);
      if (call) calls.set(event.id, { ...call, background: true });
      break;
    }
    default:
      break;
  }
  return calls;
}

export function deriveToolCalls(events: Iterable<TranscriptEvent>): ToolCall[] {
  const calls = new Map<string, ToolCall>();
  for (const event of events) foldToolCall(calls, event);
  return [...calls.values()];
}

function asksToLeaveSandbox(name: string, input: unknown): boolean {
  return (
    name === "Bash" && typeof input === "object" && input !== null && (input as { dangerouslyDisableSandbox?: unknown }).dangerouslyDisableSandbox === true
  );
}
