/**
 * Output of `arcadia replay`: JSON Lines (a machine contract, kept to the letter) or a readable
 * timeline for bug reports.
 */
import { AGENT_STATUSES, type AgentState, type ToolCall, TURN_OUTCOMES } from "../core/agent";
import { TOOL_OUTCOMES, type TranscriptEvent } from "../core/transcript";

/**
 * Every value the JSON lines can hold in these fields: README's contract lists each one, and
 * test/unit/replayContract.test.ts fails when the two differ (`denied` was printed, not listed).
 */
export const JSON_CONTRACT_VALUES = {
  outcome: [...TOOL_OUTCOMES, "running"],
  status: AGENT_STATUSES,
  lastTurn: TURN_OUTCOMES,
} as const;

export function toolJsonLine(call: ToolCall): string {
  return JSON.stringify({
    kind: "tool",
    id: call.id,
    name: call.name,
    label: call.label,
    outcome: call.outcome,
    parent: call.parent,
  });
}

export function finalJsonLine(state: AgentState): string {
  return JSON.stringify({
    kind: "final",
    status: state.status,
    lastTurn: state.lastTurn,
    activeTools: state.activeTools.list().map((t) => t.id),
  });
}

function time(at: number | undefined): string {
  return at === undefined ? "--:--:--.---" : new Date(at).toISOString().slice(11, 23);
}

function oneLine(text: string, max = 80): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

const OUTCOME_MARK = { done: "✓", error: "✗", interrupted: "⊘", denied: "⊘", orphaned: "∅", unknown: "?" } as const;

/** One readable line per event, or undefined for events a person does not need to see. */
export function timelineLine(event: TranscriptEvent, labels: ReadonlyMap<string, string>): string | undefined {
  const indent = "parent" in event && event.parent ? "    ↳ " : "";
  const head = `[${time(event.at)}] `;
  switch (event.kind) {
    case "prompt":
      return `${head}${event.source === "user" ? "prompt" : "background task reported"}: "${oneLine(event.text)}"`;
    case "toolStart":
      return `${head}${indent}▶ ${event.label}  (${event.id})`;
    case "toolEnd":
      return (
        `${head}${indent}${OUTCOME_MARK[event.outcome]} ${labels.get(event.id) ?? event.id}: ` +
        `${event.outcome}${event.revised ? " (its result came late)" : ""}`
      );
    case "backgroundLaunch":
      return `${head}… ${labels.get(event.id) ?? event.id}: runs on in the background`;
    case "turnEnd":
      return `${head}turn ended${event.durationMs !== undefined ? ` after ${(event.durationMs / 1000).toFixed(1)} s` : ""}`;
    case "interrupt":
      return `${head}interrupted by the user${event.forToolUse ? " during a tool" : ""}`;
    case "apiError":
      if (event.final) return `${head}API error, turn ended: ${oneLine(event.message)}`;
      return `${head}API error${event.status ? ` ${event.status}` : ""}: ${oneLine(event.message, 60)}${
        event.retryAttempt !== undefined ? ` (retry ${event.retryAttempt}/${event.maxRetries ?? "?"}` : " ("
      }${event.retryInMs !== undefined ? ` in ${(event.retryInMs / 1000).toFixed(1)} s)` : ")"}`;
    case "compaction":
      return `${head}context compacted${event.trigger ? ` (${event.trigger})` : ""}`;
    case "slashCommand":
      return `${head}${event.name}${event.args ? ` ${oneLine(event.args, 40)}` : ""}`;
    case "assistantText":
      return `${head}reply: "${oneLine(event.text, 60)}"`;
    case "sessionEnd":
      return `${head}session ended`;
    case "localCommandDone":
    case "usage":
      return undefined;
  }
}

export function stateLine(state: AgentState): string {
  const running = state.activeTools.size;
  return `status: ${state.status} · last turn: ${state.lastTurn} · ${running} tool${running === 1 ? "" : "s"} running`;
}
