/**
 * The budget on Claude Code's hooks: Arcadia's PreToolUse answers "deny" to the next tool call of
 * an agent paused at its cap (or the day's), with the reason the model reads, and to a sub-agent
 * call beyond `maxSubagents` alive. The wrapped endpoint runs first whatever the gate says (the
 * card's rows, the collision guard), and a denial replaces its answer: no prompt or "ask" can let a
 * paused agent's call through. The agent is the one the request authenticated as (its own token),
 * never a field of the hook input, and a sub-agent's calls count as its parent's.
 *
 * Checked against the CLI's hooks reference (2.1.x): a PreToolUse `permissionDecision: "deny"`
 * stops the call before it runs and gives `permissionDecisionReason` to the model as the call's
 * result; it applies to every tool, Arcadia's pre-allowed `mcp__arcadia__*` tools included.
 */
import { isSideQuery } from "../hooks";
import type { HookEndpoint, HookInput, HookRequest } from "../server";
import { errorMessage } from "../util";
import { isSubagentCall, type LiveSubagents } from "./liveSubagents";
import { pauseReason, type PauseVerdict } from "./pauseRule";

export type BudgetDenial = { kind: "paused"; verdict: Extract<PauseVerdict, { paused: true }> } | { kind: "subagents"; limit: number; toolName: string };

export interface BudgetGateOptions {
  /** The pause rule's verdict for the agent now (from figures already at hand: called on every tool call). */
  verdict: (agentId: string) => PauseVerdict;
  maxSubagents: () => number;
  subagents: LiveSubagents;
  /** A tool call the gate let through (the spawn-rate alarm counts them). */
  allowed?: (agentId: string) => void;
  /** A call was denied (the card says why; its row ends): `input` is its PreToolUse. */
  denied?: (agentId: string, denial: BudgetDenial, input: HookInput) => void;
  log: (message: string) => void;
}

/** The PreToolUse answer that stops the call; the model reads `reason`. */
export function denyAnswer(reason: string): object {
  return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } };
}

export function subagentReason(limit: number): string {
  const running = `${limit} sub-agent${limit === 1 ? "" : "s"} running`;
  return `Arcadia: this agent already has ${running}, its limit (arcadia.budget.maxSubagents). Wait for one to finish before starting another.`;
}

/** The denial for this request, if any (and the sub-agent count kept). */
export function budgetDenial(request: HookRequest, options: BudgetGateOptions): BudgetDenial | undefined {
  const { agentId, input } = request;
  if (input.hook_event_name !== "PreToolUse") {
    options.subagents.observe(agentId, input);
    return undefined;
  }
  // A side query's call never runs (the CLI refuses it): nothing to hold back or count.
  if (isSideQuery(input)) return undefined;
  const verdict = options.verdict(agentId);
  if (verdict.paused) return { kind: "paused", verdict };
  if (isSubagentCall(input)) {
    const limit = options.maxSubagents();
    if (options.subagents.count(agentId) >= limit) return { kind: "subagents", limit, toolName: String(input.tool_name) };
    options.subagents.started(agentId, input);
  }
  options.allowed?.(agentId);
  return undefined;
}

export function withBudgetGate(endpoint: HookEndpoint, options: BudgetGateOptions): HookEndpoint {
  return async (request: HookRequest) => {
    let denial: BudgetDenial | undefined;
    try {
      denial = budgetDenial(request, options);
    } catch (err) {
      options.log(`budget gate failed (the call goes on): ${errorMessage(err)}`);
    }
    const base = endpoint(request);
    if (!denial) return base;
    // The base still sees the call (its row on the card); its answer is replaced.
    await Promise.resolve(base).catch(() => undefined);
    try {
      options.denied?.(request.agentId, denial, request.input);
    } catch (err) {
      options.log(`budget denial listener failed: ${errorMessage(err)}`);
    }
    return denyAnswer(denial.kind === "paused" ? pauseReason(denial.verdict) : subagentReason(denial.limit));
  };
}
