/** A card's earlier turns, one line each, newest first; a click shows that turn's calls. */
import { useState, type SyntheticEvent } from "react";
import type { TurnSummaryView } from "../../../src/shared/protocol";
import { duration } from "../usageText";
import { Codicon } from "./Codicon";

const ENDING: Record<TurnSummaryView["ending"], string> = { running: "running", completed: "completed", interrupted: "interrupted", error: "error" };

/** "Turn 3 · 5 tools · 42 s · completed". */
export function turnLine(turn: TurnSummaryView): string {
  const parts = [`Turn ${turn.number}`, `${turn.tools} ${turn.tools === 1 ? "tool" : "tools"}`];
  if (turn.durationMs !== null) parts.push(duration(turn.durationMs));
  parts.push(ENDING[turn.ending]);
  return parts.join(" · ");
}

/** Under the current turn, the card's earlier turns, newest first, one line each; a click shows that turn's calls. */
export function TurnHistory({ turns }: { turns: TurnSummaryView[] | undefined }) {
  if (!turns || turns.length === 0) return null;
  return (
    <ol className="turn-history" data-testid="turn-history" aria-label="Earlier turns">
      {[...turns].reverse().map((turn) => (
        <Turn key={turn.number} turn={turn} />
      ))}
    </ol>
  );
}

function Turn({ turn }: { turn: TurnSummaryView }) {
  const [open, setOpen] = useState(false);
  const stop = (e: SyntheticEvent) => e.stopPropagation();
  return (
    <li className={`turn-summary ending-${turn.ending}`} data-testid="turn-summary" onClick={stop}>
      <button type="button" className="turn-line" aria-expanded={open} title={turn.prompt} onClick={() => setOpen(!open)} onKeyDown={stop}>
        <Codicon name={open ? "chevron-down" : "chevron-right"} />
        <span className="turn-text">{turnLine(turn)}</span>
        <span className="turn-prompt">{turn.prompt}</span>
      </button>
      {open && (
        <ul className="turn-rows" data-testid="turn-rows">
          {turn.rows.map((row, i) => (
            <li key={i} className={`turn-row outcome-${row.outcome}`}>
              {row.label} <span className="turn-row-outcome">{row.outcome}</span>
            </li>
          ))}
          {turn.tools > turn.rows.length && <li className="turn-row">… {turn.tools - turn.rows.length} more</li>}
        </ul>
      )}
    </li>
  );
}
