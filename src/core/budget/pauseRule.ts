/**
 * The pause rule: whether an agent's next tool call may run, from what it has spent against its
 * cap, what its group (a race; later a queue) spent against the group's cap, and what all agents
 * spent today against the day's cap. Pure, so the hook, the card and the typing gate all say the
 * same thing.
 *
 * Spending is what the transcript's usage prices to (core/usage). A model the price table does not
 * know makes the figure a lower bound (`complete: false`): it pauses once even the known part
 * reaches the cap, and the card says the cost is not all known; it is never taken as $0 beyond that.
 * A cap of 0 pauses from the start, whatever is known.
 */
import { dollars } from "./budgetSettings";

export interface Spend {
  /** USD priced so far (a lower bound when not complete). */
  usd: number;
  /** False when some tokens are of a model the price table does not know. */
  complete: boolean;
}

/** Agents sharing one cap: the members of a race (a queue's items later). */
export interface GroupLabel {
  kind: "race";
  /** Its short name, e.g. the race's task. */
  name: string;
}

export interface GroupInput extends GroupLabel {
  /** What all its members spent, every session of each (closed ones too). */
  spend: Spend | undefined;
  /** Its cap now (set on it, else the setting), or null. */
  capUsd: number | null;
}

export interface PauseInput {
  agent: Spend | undefined;
  /** The agent's cap now (a raise, else the setting), or null. */
  agentCapUsd: number | null;
  /** The group the agent belongs to, if any. */
  group?: GroupInput;
  /** All agents today, and the day's cap now (a raise, else the setting). */
  day: Spend | undefined;
  dayCapUsd: number | null;
}

export type PauseVerdict =
  | { paused: false }
  | {
      paused: true;
      /** Which cap holds it: the agent's or its group's (the lower when both do), else the day's. */
      scope: "agent" | "day";
      capUsd: number;
      spentUsd: number;
    }
  | { paused: true; scope: "group"; group: GroupLabel; capUsd: number; spentUsd: number };

const reached = (spend: Spend | undefined, cap: number | null): cap is number => cap !== null && (cap === 0 || (spend !== undefined && spend.usd >= cap));

export function pauseVerdict(input: PauseInput): PauseVerdict {
  const { group } = input;
  const byAgent = reached(input.agent, input.agentCapUsd);
  const byGroup = group !== undefined && reached(group.spend, group.capUsd);
  // Both reached: the lower cap is the one to raise first (a raise of the other would change nothing).
  if (byGroup && !(byAgent && input.agentCapUsd! <= group.capUsd!)) {
    return { paused: true, scope: "group", group: { kind: group.kind, name: group.name }, capUsd: group.capUsd!, spentUsd: group.spend?.usd ?? 0 };
  }
  if (byAgent) return { paused: true, scope: "agent", capUsd: input.agentCapUsd!, spentUsd: input.agent?.usd ?? 0 };
  if (reached(input.day, input.dayCapUsd)) return { paused: true, scope: "day", capUsd: input.dayCapUsd, spentUsd: input.day?.usd ?? 0 };
  return { paused: false };
}

type Paused = Extract<PauseVerdict, { paused: true }>;

/** What the model reads when its call is denied at the cap. */
export function pauseReason(verdict: Paused): string {
  const whose =
    verdict.scope === "agent"
      ? "this agent reached its"
      : verdict.scope === "group"
        ? `the agents of this ${verdict.group.kind} (${verdict.group.name}) reached their`
        : "the agents of this workspace reached today's";
  return `Arcadia: ${whose} ${dollars(verdict.capUsd)} budget. Stop and wait; the user can raise it.`;
}

/** What the card says: "Paused at budget — $5.02 of $5.00" (or "… of today's $20.00", or "Paused at the race's budget — …"). */
export function pausedLine(verdict: Paused): string {
  const at = verdict.scope === "group" ? `the ${verdict.group.kind}'s budget` : "budget";
  return `Paused at ${at} — ${dollars(verdict.spentUsd)} of ${verdict.scope === "day" ? "today's " : ""}${dollars(verdict.capUsd)}`;
}
