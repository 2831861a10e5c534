/**
 * A session's turns, one summary each ("Turn 3 · 5 tools · 42 s · completed"), folded from the
 * engine's events: a pure fold, bounded (the newest `MAX_TURNS` turns, `MAX_ROWS` rows each), so a
 * card can show its earlier turns without keeping their events.
 */
import type { ToolOutcome, TranscriptEvent } from "../transcript";
import { oneLine } from "../util";

export const MAX_TURNS = 50;
export const MAX_ROWS = 40;
const PROMPT_CHARS = 120;

export type TurnEnding = "running" | "completed" | "interrupted" | "error";

export interface TurnRow {
  id: string;
  /** Its words as it started ("Running: npm test"); once it ran, a command reads as its deed (labelOnceRan). */
  label: string;
  /** The bare deed and the tool, for those words (core/labels). */
  action: string;
  name: string;
  outcome: ToolOutcome | "running";
}

export interface TurnSummary {
  /** 1-based, counted from the session's start. */
  number: number;
  /** The prompt, whitespace collapsed and cut; "Background task finished" for a task notification. */
  prompt: string;
  startedAt?: number;
  endedAt?: number;
  /** `turn_duration`'s figure when the CLI wrote one, else from the timestamps. */
  durationMs?: number;
  /** The agent's own tool calls (a sub-agent's calls run under its Subtask row). */
  tools: number;
  /** The first MAX_ROWS calls. */
  rows: TurnRow[];
  ending: TurnEnding;
  /** The final API error's text, for `error`. */
  error?: string;
}

export interface TurnHistory {
  /** Turns started in the session (more than `turns.length` once old ones were dropped). */
  count: number;
  turns: TurnSummary[];
}

export const emptyHistory = (): TurnHistory => ({ count: 0, turns: [] });

function close(turn: TurnSummary, ending: Exclude<TurnEnding, "running">, at: number | undefined, durationMs?: number): void {
  if (turn.ending !== "running") return;
  turn.ending = ending;
  turn.endedAt = at ?? turn.endedAt;
  turn.durationMs = durationMs ?? (turn.startedAt !== undefined && turn.endedAt !== undefined ? Math.max(0, turn.endedAt - turn.startedAt) : undefined);
  for (const row of turn.rows) if (row.outcome === "running") row.outcome = "orphaned";
}

/** Folds events into the history (mutates and returns it: the reader owns it). */
export function foldTurns(history: TurnHistory, events: readonly TranscriptEvent[]): TurnHistory {
  for (const event of events) {
    const current = history.turns.at(-1);
    switch (event.kind) {
      case "prompt": {
        if (current) close(current, "completed", current.endedAt ?? event.at);
        history.count++;
        const prompt = event.source === "task-notification" ? "Background task finished" : oneLine(event.text, PROMPT_CHARS);
        history.turns.push({ number: history.count, prompt, startedAt: event.at, endedAt: event.at, tools: 0, rows: [], ending: "running" });
        if (history.turns.length > MAX_TURNS) history.turns.shift();
        break;
      }
      case "toolStart":
        if (!current || event.parent !== null) break;
        current.tools++;
        if (current.rows.length < MAX_ROWS) current.rows.push({ id: event.id, label: event.label, action: event.action, name: event.name, outcome: "running" });
        break;
      case "toolEnd": {
        const row = current?.rows.find((r) => r.id === event.id);
        if (row && (row.outcome === "running" || event.revised)) row.outcome = event.outcome;
        break;
      }
      case "turnEnd":
        if (current) close(current, "completed", event.at, event.durationMs);
        break;
      case "interrupt":
        if (current) close(current, "interrupted", event.at);
        break;
      case "apiError":
        if (current && event.final) {
          close(current, "error", event.at);
          current.error = event.message.slice(0, 300);
        }
        break;
      case "sessionEnd":
        if (current) close(current, "completed", current.endedAt);
        break;
      default:
        if (current && event.at !== undefined && current.ending === "running") current.endedAt = event.at;
    }
    if (current && current.ending === "running" && event.at !== undefined && event.kind !== "prompt")
      current.endedAt = Math.max(current.endedAt ?? event.at, event.at);
  }
  return history;
}
