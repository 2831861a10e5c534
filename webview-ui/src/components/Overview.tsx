/**
 * The panel's overview: a line per agent and every prompt with its buttons. From CROWDED_AT agents
 * on, a filter box, the prompts first (they stay in view while the lines scroll), the lines sorted
 * by what needs you, races under a heading, the idle ones behind a count ("12 idle ▸").
 */
import { useEffect, useMemo, useRef, useState } from "react";
import type { CardView } from "../../../src/shared/protocol";
import { nowDoing } from "../nowDoing";
import { CROWDED_AT, overviewRows, type OverviewRow } from "../overviewRows";
import { useCardsVisible } from "../useCardsVisible";
import { AgentLine, AgentPrompts } from "./AgentLine";
import { CardErrorBoundary } from "./CardErrorBoundary";
import { Codicon } from "./Codicon";

export interface OverviewProps {
  cards: CardView[];
  /** Whose details show below. */
  shown: string | undefined;
  onShowDetails: (id: string) => void;
  /** The card the extension asked to bring into view last. */
  reveal: { id: string; seq: number } | null;
}

const doingText = (card: CardView) => nowDoing(card)?.text;

export function Overview({ cards, shown, onShowDetails, reveal }: OverviewProps) {
  const crowded = cards.length >= CROWDED_AT;
  const [filter, setFilter] = useState("");
  const [idleExpanded, setIdleExpanded] = useState(false);
  const rows = useMemo(() => overviewRows(cards, { idleExpanded, filter, doing: doingText }), [cards, idleExpanded, filter]);
  const lineIds = rows.flatMap((row) => (row.kind === "line" ? [row.card.id] : []));

  // An agent the extension asks to bring into view is never hidden by the filter or the idle count.
  const revealed = reveal?.id;
  const hidden = revealed !== undefined && cards.some((c) => c.id === revealed) && !lineIds.includes(revealed);
  useEffect(() => {
    if (!hidden) return;
    setFilter("");
    setIdleExpanded(true);
  }, [hidden, reveal?.seq]);

  const overview = useRef<HTMLDivElement>(null);
  useCardsVisible(overview, lineIds.join(","));
  // Every prompt of every agent, in the agents' order: never in a scrolled-away line.
  const asking = cards.filter((card) => card.prompts.length > 0);
  const prompts = asking.length > 0 && (
    <ul className={`attention${crowded ? " attention-first" : ""}`} aria-label="Waiting for your answer" data-testid="attention">
      {asking.map((agent) => (
        <CardErrorBoundary key={agent.id} agentId={agent.id} resetKeys={[agent]}>
          <AgentPrompts agent={agent} onAnswered={onShowDetails} />
        </CardErrorBoundary>
      ))}
    </ul>
  );

  return (
    <div className={`overview${crowded ? " crowded" : ""}`} ref={overview}>
      {crowded && <FilterBox filter={filter} onChange={setFilter} matching={lineIds.length} total={cards.length} />}
      {crowded && prompts}
      <ul className="agent-overview" aria-label="Agents" data-testid="agent-overview">
        {rows.map((row) => (
          <Row key={rowKey(row)} row={row} shown={shown} onShowDetails={onShowDetails} reveal={reveal} onToggleIdle={() => setIdleExpanded((e) => !e)} />
        ))}
        {crowded && filter.trim() !== "" && lineIds.length === 0 && (
          <li className="overview-none" data-testid="overview-none">
            No agent matches “{filter.trim()}”
          </li>
        )}
      </ul>
      {!crowded && prompts}
    </div>
  );
}

function rowKey(row: OverviewRow): string {
  if (row.kind === "line") return row.card.id;
  return row.kind === "group" ? row.group.key : "idle";
}

function Row({ row, shown, onShowDetails, reveal, onToggleIdle }: Omit<OverviewProps, "cards"> & { row: OverviewRow; onToggleIdle: () => void }) {
  if (row.kind === "group")
    return (
      <li className="overview-group" data-testid="overview-group" title={`${row.group.label}: ${row.count} agents`}>
        <span className="overview-group-label">{row.group.label}</span>
        <span className="overview-group-count">{row.count}</span>
      </li>
    );
  if (row.kind === "idle")
    return (
      <li className="overview-idle">
        <button
          type="button"
          className="overview-idle-toggle"
          data-testid="idle-toggle"
          aria-expanded={row.expanded}
          title={row.expanded ? "Hide the idle agents' lines" : "Show the idle agents' lines"}
          onClick={onToggleIdle}
        >
          {row.count} idle <Codicon name={row.expanded ? "chevron-down" : "chevron-right"} />
        </button>
      </li>
    );
  const agent = row.card;
  return (
    // One agent's bad data breaks its own line only, never the overview.
    <CardErrorBoundary agentId={agent.id} resetKeys={[agent]}>
      <AgentLine agent={agent} shown={agent.id === shown} onShowDetails={onShowDetails} revealSeq={reveal?.id === agent.id ? reveal.seq : 0} />
    </CardErrorBoundary>
  );
}

/** Narrows the lines to the agents whose name, branch, status or work has the text; Escape clears it. */
function FilterBox(props: { filter: string; onChange: (text: string) => void; matching: number; total: number }) {
  const { filter, onChange, matching, total } = props;
  return (
    <div className="overview-filter">
      <Codicon name="filter" />
      <input
        type="search"
        className="overview-filter-input"
        data-testid="overview-filter"
        aria-label="Filter agents by name, branch or status"
        placeholder="Filter: name, branch, status"
        value={filter}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== "Escape" || !filter) return;
          e.stopPropagation();
          onChange("");
        }}
      />
      {filter.trim() !== "" && (
        <span className="overview-filter-count" data-testid="overview-filter-count">
          {matching} of {total}
        </span>
      )}
    </div>
  );
}
