/**
 * get_agent_status (declared in core/toolDeclarations/getAgentStatus.ts): the calling agent's card,
 * as the user sees it in the panel, told to the agent itself. Only its own: the agent is the one
 * the server authenticated for the call (its launch's token), never one named in the input. A cost
 * Arcadia cannot price is said to be unknown, never $0. Its budget is told in the card's own words,
 * so the agent reads what the user reads (null while no cap, brake or spend applies).
 */
import { declaredTool } from "../toolDeclarations";
import { implement } from "./implement";
import type { AgentCardFacts } from "./ports";
import { ok, toolError } from "./results";

const STATUS_WORDS: Readonly<Record<string, string>> = {
  starting: "starting",
  active: "working",
  waiting: "idle: its turn is over",
  needsYou: "waiting for the user",
  compacting: "compacting its context",
  exited: "exited",
};

export const getAgentStatusTool = implement(declaredTool("get_agent_status"), (ports) => async (_args, context) => {
  const card = context.agentId === undefined ? undefined : ports.agentCard?.(context.agentId);
  if (!card) return toolError("Arcadia shows no card for this session: it was not launched from Arcadia's panel, or its card was closed.");
  return ok({
    name: card.name,
    agent_status: card.status,
    agent_status_words: STATUS_WORDS[card.status] ?? card.status,
    ...contextUse(card),
    ...spend(card),
    branch: card.worktree?.branch ?? card.branch ?? null,
    ...(card.worktree ? { worktree_base: card.worktree.base } : {}),
    ...(card.limit ? { limit: card.limit } : {}),
    budget: budget(card),
  });
});

function contextUse(card: AgentCardFacts): Record<string, unknown> {
  if (!card.context) return { context: null };
  const { usedTokens, windowTokens } = card.context;
  return { context: { used_tokens: usedTokens, window_tokens: windowTokens, used_percent: Math.round((usedTokens / windowTokens) * 100) } };
}

function spend(card: AgentCardFacts): Record<string, unknown> {
  if (!card.usage) return { tokens: null, cost_usd: null, cost_note: "Not read yet: the cost is unknown." };
  const { tokens, costUsd, unpricedModels } = card.usage;
  return {
    tokens: { input: tokens.input, output: tokens.output, cache_read: tokens.cacheRead, cache_write: tokens.cacheWrite },
    cost_usd: Math.round(costUsd * 10_000) / 10_000,
    ...(unpricedModels.length
      ? { cost_note: `Estimated; without ${unpricedModels.join(", ")}, which Arcadia's price table does not know (their cost is unknown).` }
      : { cost_note: "Estimated from Arcadia's price table." }),
  };
}

function budget(card: AgentCardFacts): Record<string, unknown> | null {
  if (!card.budget) return null;
  const { paused, spent, rate, eta, brake, group } = card.budget;
  const race = group ? { race_budget: group } : {};
  return { paused: paused !== null, ...(paused ? { paused_words: paused } : {}), spent, burn_rate: rate, cap_reached_in: eta, subagent_brake: brake, ...race };
}
