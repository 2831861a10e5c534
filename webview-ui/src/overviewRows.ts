/**
 * The overview's rows at scale: agents that need you first, then working, then stopped, then idle
 * (collapsed into a count unless asked), race members together under their race, and a filter.
 */
import type { CardView } from "../../src/shared/protocol";
import { cardStatus, statusText, type CardStatus } from "./agentStatus";

/**
 * From this many agents on the overview is sorted, grouped, filterable and its idle lines collapse.
 * Below it, every line shows in the agents' order: a short list reads best as it was opened, and
 * lines that jump as statuses change cost more than they help.
 */
export const CROWDED_AT = 9;

/** Where an agent goes: 0 first. */
export type Urgency = 0 | 1 | 2 | 3;
const URGENCY: Record<CardStatus, Urgency> = {
  needsYou: 0,
  active: 1,
  starting: 1,
  compacting: 1,
  interrupted: 2,
  error: 2,
  exited: 2,
  waiting: 3,
};

export function urgency(card: CardView): Urgency {
  return card.prompts.length > 0 ? 0 : URGENCY[cardStatus(card)];
}

/** The lines that go together under one heading: a race's members (a queue's jobs, later, the same way). */
export interface LineGroup {
  key: string;
  label: string;
}

/** The one grouping today: by race. A queue adds its case here and nothing else changes. */
export function groupOf(card: CardView): LineGroup | null {
  return card.race ? { key: `race:${card.race.raceId}`, label: `race: ${card.race.task}` } : null;
}

export type OverviewRow =
  { kind: "line"; card: CardView } | { kind: "group"; group: LineGroup; count: number } | { kind: "idle"; count: number; expanded: boolean };

/** Does the filter's text appear in its name, branch, status words, what it does or its race? */
export function matchesFilter(card: CardView, filter: string, doing: string | undefined): boolean {
  const words = filter.trim().toLowerCase();
  if (!words) return true;
  const haystack = [card.name, card.branch ?? "", statusText(card), doing ?? "", card.race ? `race: ${card.race.task}` : ""].join("\n").toLowerCase();
  return haystack.includes(words);
}

interface Entry {
  urgency: Urgency;
  index: number;
  group: LineGroup | null;
  cards: CardView[];
}

/**
 * The rows in order. Not crowded: a line per card as given. Crowded: the cards that pass `filter`
 * (all when it is empty), each race as one entry at its most urgent member's place (members by
 * their number), entries by urgency then the agents' order; idle lone agents last, under one count
 * row, their lines only when `idleExpanded` (a filter shows its idle matches as lines, no count).
 */
export function overviewRows(
  cards: readonly CardView[],
  options: { idleExpanded: boolean; filter: string; doing?: (card: CardView) => string | undefined },
): OverviewRow[] {
  if (cards.length < CROWDED_AT) return cards.map((card) => ({ kind: "line", card }));
  const shown = cards.filter((card) => matchesFilter(card, options.filter, options.doing?.(card)));
  const entries = new Map<string, Entry>();
  for (const card of shown) {
    const group = groupOf(card);
    const key = group?.key ?? `agent:${card.id}`;
    const entry = entries.get(key) ?? { urgency: 3, index: card.index, group, cards: [] };
    entry.cards.push(card);
    entry.urgency = Math.min(entry.urgency, urgency(card)) as Urgency;
    entry.index = Math.min(entry.index, card.index);
    entries.set(key, entry);
  }
  const ordered = [...entries.values()].sort((a, b) => a.urgency - b.urgency || a.index - b.index);
  const rows: OverviewRow[] = [];
  const idle: CardView[] = [];
  for (const entry of ordered) {
    if (!entry.group && entry.urgency === 3) {
      idle.push(...entry.cards);
      continue;
    }
    if (entry.group) {
      rows.push({ kind: "group", group: entry.group, count: entry.cards.length });
      entry.cards.sort((a, b) => (a.race?.member ?? 0) - (b.race?.member ?? 0) || a.index - b.index);
    }
    for (const card of entry.cards) rows.push({ kind: "line", card });
  }
  if (idle.length === 0) return rows;
  // What a filter finds shows whole: idle matches are lines, with no count to open.
  if (options.filter.trim() === "") rows.push({ kind: "idle", count: idle.length, expanded: options.idleExpanded });
  if (options.idleExpanded || options.filter.trim() !== "") for (const card of idle) rows.push({ kind: "line", card });
  return rows;
}
