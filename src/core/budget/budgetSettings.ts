/**
 * The budget's settings, read as untrusted input: `arcadia.budget.perAgent` and
 * `arcadia.budget.perDay` and `arcadia.budget.perRace` (dollars; empty = no cap; 0 = paused from the start) and
 * `arcadia.budget.maxSubagents` (sub-agents alive at once per agent). A value that is negative,
 * not a number, or absurd is refused with a message naming the setting and saying what to write;
 * the refused setting then caps nothing (the rest still apply) until it is fixed.
 */

/** Above this a cap is a typo (an extra zero or two), not a budget: refused. */
export const MAX_CAP_USD = 10_000;
/** Above this a sub-agent limit holds nothing back: refused. */
export const MAX_SUBAGENTS_LIMIT = 100;
export const DEFAULT_MAX_SUBAGENTS = 5;

export interface BudgetSettings {
  /** Dollars per agent (its current session), or null: no cap. */
  perAgentUsd: number | null;
  /** Dollars for all the workspace's agents per local day, or null: no cap. */
  perDayUsd: number | null;
  /** Dollars for all the agents of one race together (each race, unless set on it), or null: no cap. */
  perRaceUsd: number | null;
  /** Sub-agents alive at once per agent; the next one is denied. */
  maxSubagents: number;
}

export interface RawBudgetSettings {
  perAgent?: unknown;
  perDay?: unknown;
  perRace?: unknown;
  maxSubagents?: unknown;
}

export interface ReadBudgetSettings {
  settings: BudgetSettings;
  /** One message per refused setting, naming it. */
  problems: string[];
}

const shown = (value: unknown): string => {
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/** A cap in dollars, or why it is refused. */
function readCap(setting: string, value: unknown): { cap: number | null } | { problem: string } {
  if (value === undefined || value === null || value === "") return { cap: null };
  const fix = `write a dollar amount such as 5, 0 to pause from the start, or leave it empty for no cap`;
  if (typeof value !== "number" || Number.isNaN(value)) return { problem: `${setting} is ${shown(value)}, which is not a number: ${fix}.` };
  if (value < 0) return { problem: `${setting} is ${shown(value)}: a cap cannot be negative; ${fix}.` };
  if (!Number.isFinite(value) || value > MAX_CAP_USD)
    return { problem: `${setting} is ${shown(value)}: more than $${MAX_CAP_USD} is taken for a typo; ${fix}.` };
  return { cap: value };
}

function readLimit(setting: string, value: unknown): { limit: number } | { problem: string } {
  if (value === undefined || value === null || value === "") return { limit: DEFAULT_MAX_SUBAGENTS };
  const fix = `write a whole number from 0 to ${MAX_SUBAGENTS_LIMIT} (default ${DEFAULT_MAX_SUBAGENTS}); meanwhile ${DEFAULT_MAX_SUBAGENTS} applies`;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_SUBAGENTS_LIMIT) {
    return { problem: `${setting} is ${shown(value)}: ${fix}.` };
  }
  return { limit: value };
}

export function readBudgetSettings(raw: RawBudgetSettings): ReadBudgetSettings {
  const problems: string[] = [];
  const perAgent = readCap("arcadia.budget.perAgent", raw.perAgent);
  const perDay = readCap("arcadia.budget.perDay", raw.perDay);
  const perRace = readCap("arcadia.budget.perRace", raw.perRace);
  const subagents = readLimit("arcadia.budget.maxSubagents", raw.maxSubagents);
  if ("problem" in perAgent) problems.push(perAgent.problem);
  if ("problem" in perDay) problems.push(perDay.problem);
  if ("problem" in perRace) problems.push(perRace.problem);
  if ("problem" in subagents) problems.push(subagents.problem);
  return {
    settings: {
      perAgentUsd: "cap" in perAgent ? perAgent.cap : null,
      perDayUsd: "cap" in perDay ? perDay.cap : null,
      perRaceUsd: "cap" in perRace ? perRace.cap : null,
      maxSubagents: "limit" in subagents ? subagents.limit : DEFAULT_MAX_SUBAGENTS,
    },
    problems,
  };
}

/** "$5.00", "$0.05", "$1,234.50", "< $0.01": what a card and a denial say. Under a cent reads as
 * the card's header does ("$0.00" beside a header's "< $0.01" would say the same spend two ways). */
export function dollars(usd: number): string {
  if (usd > 0 && usd < 0.01) return "< $0.01";
  return `$${usd.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
