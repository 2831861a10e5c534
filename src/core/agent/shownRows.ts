/**
 * The one way a card's rows are made, live and after a reload alike: the transcript's rows
 * (cardTools.ts), completed by the hooks and prompts when the card is live (hookRows.ts), then the
 * one rule for truth, then the words. A restored card is the same function with no live sources,
 * so it reads as the live card did once the transcript has caught up.
 *
 * The rule: a row is running only while the CLI's own sources say the tool runs. Once the agent is
 * idle — its status file says so, or its transcript's turn is over — every row still running ends
 * (`orphaned`: it ended, its result unknown), except a background sub-agent that really runs and
 * the calls under it (they say "background" on the card). Pure.
 */
import type { AgentState } from "./agentState";
import { cardTools } from "./cardTools";
import { type CardRow, cardRows, type RowSources } from "./hookRows";
import { isSubagentTool, rowLabel } from "../labels";

/** A row as shown: `label` is its words as a person reads them, verdict included ("Denied: touch x"). */
export type ShownRow = CardRow;

export function shownRows(turnEvents: Parameters<typeof cardTools>[0], state: AgentState | undefined, live: RowSources | undefined): ShownRow[] {
  const transcript = state ? cardTools(turnEvents, state) : [];
  const rows: CardRow[] = live ? cardRows(transcript, live) : transcript.map((row) => ({ ...row }));
  if (live?.waitingOnPermission) markTheOneAsking(rows);
  if (live ? live.idle : state?.status === "waiting") endWhatIsNotRunning(rows);
  return rows.map((row) => ({ ...row, label: rowLabel(row.outcome, row.label, row.action, row.name) }));
}

/**
 * The CLI waits on a permission prompt no row knows of: when exactly one call of the agent's own
 * (not a background sub-agent's) is running, it is the one asking. More than one: not guessed.
 */
function markTheOneAsking(rows: CardRow[]): void {
  if (rows.some((row) => row.outcome === "waiting")) return;
  const byId = new Map(rows.map((row) => [row.id, row]));
  const underBackground = (row: CardRow) => row.parent !== null && byId.get(row.parent)?.background === true;
  const running = rows.filter((row) => row.outcome === "running" && !row.background && !isSubagentTool(row.name) && !underBackground(row));
  if (running.length === 1) running[0]!.outcome = "waiting";
}

/** The agent is idle: nothing of its own runs; only a background sub-agent (and what runs under it) does. */
function endWhatIsNotRunning(rows: CardRow[]): void {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const inBackground = (row: CardRow): boolean => {
    // Up the parents (a sub-agent's call is under its Agent call); bounded against a cycle in hostile input.
    for (let at: CardRow | undefined = row, hops = 0; at && hops < 64; at = at.parent ? byId.get(at.parent) : undefined, hops++) {
      if (at.background && at.outcome === "running") return true;
    }
    return false;
  };
  for (const row of rows) {
    if ((row.outcome === "running" || row.outcome === "waiting") && !inBackground(row)) row.outcome = "orphaned";
  }
}
