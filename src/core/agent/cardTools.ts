/**
 * The tools a card shows: every call of the current turn (finished and running, derived from the
 * turn's events) plus calls still running from earlier turns (background sub-agents, found in the
 * live state). Pure: the same events and state always give the same rows.
 */
import type { TranscriptEvent } from "../transcript";
import type { AgentState } from "./agentState";
import { deriveToolCalls, type ToolCall } from "./toolCalls";

export function cardTools(turnEvents: readonly TranscriptEvent[], state: AgentState): ToolCall[] {
  const calls = deriveToolCalls(turnEvents);
  const shown = new Set(calls.map((c) => c.id));
  const carried: ToolCall[] = state.activeTools
    .list()
    .filter((t) => !shown.has(t.id))
    .map((t) => ({
      id: t.id,
      name: t.name,
      label: t.label,
      action: t.action,
      parent: t.parent,
      outcome: "running",
      background: t.background,
      startedAt: t.startedAt,
    }));
  // Carried-over calls started earlier: they come first, as they did on the card.
  return [...carried, ...calls];
}
