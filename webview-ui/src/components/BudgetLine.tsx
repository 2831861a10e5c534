/**
 * An agent's budget (arcadia.budget.*) in the panel: on its overview line and its card, "Paused at
 * budget — $5.02 of $5.00" with Raise… and Stop while its tool calls are denied; on its card, what
 * it spent of its cap, its burn rate and when the cap is reached at that rate, what its race spent
 * of the race's cap (with Race…: "Cap this race at…"); and the runaway brake's note when a sub-agent
 * was denied. Paused at its race's cap, the same words say so and Raise… raises the race's cap.
 */
import type { BudgetView } from "../../../src/shared/protocol";
import { post } from "../clients/panelClient";
import { ActionButton } from "./ActionButton";
import { Codicon } from "./Codicon";

/** "$3.00/h · at this rate the cap is reached in 25 min": for tooltips (the overview line's). */
export function budgetTitle(budget: BudgetView | null | undefined): string {
  if (!budget) return "";
  const rate = [budget.rate && `burning ${budget.rate}`, budget.eta].filter(Boolean).join(" · ");
  return `\nBudget: ${budget.spent}${rate ? ` · ${rate}` : ""}`;
}

/** Paused at the cap: the words, Raise… and Stop. Nothing when it runs. */
export function BudgetPaused({ agentId, name, budget }: { agentId: string; name: string; budget: BudgetView | null | undefined }) {
  if (!budget?.paused) return null;
  return (
    <div
      className="budget-paused"
      data-testid="budget-paused"
      role="status"
      title={`Its next tool call is denied; nothing is typed to it.${budgetTitle(budget)}`}
    >
      <Codicon name="debug-pause" />
      <span className="budget-paused-text">{budget.paused}</span>
      <ActionButton
        testId="budget-raise"
        label={`Raise ${name}'s budget`}
        title="Raise the cap that pauses it (its race's raises it for all the race's agents): its next tool call passes"
        onPress={() => post({ type: "budgetAction", id: agentId, action: "raise" })}
      >
        Raise…
      </ActionButton>
      <ActionButton
        testId="budget-stop"
        label={`Stop ${name}`}
        title="Close its terminal (its session stays, to resume)"
        onPress={() => post({ type: "budgetAction", id: agentId, action: "stop" })}
      >
        Stop
      </ActionButton>
    </div>
  );
}

/** The card's budget lines: spent of the cap, the rate, the brake; the pause with its buttons. */
export function BudgetLine({ agentId, name, budget }: { agentId: string; name: string; budget: BudgetView | null | undefined }) {
  if (!budget) return null;
  const figures = [budget.spent, budget.rate, budget.eta].filter(Boolean).join(" · ");
  const raceCap = (
    <ActionButton
      testId="budget-cap-race"
      label={`Cap the race ${name} runs in`}
      title="Cap this race at… (all its agents together)"
      onPress={() => post({ type: "budgetAction", id: agentId, action: "capRace" })}
    >
      Race…
    </ActionButton>
  );
  return (
    <>
      <BudgetPaused agentId={agentId} name={name} budget={budget} />
      {!budget.paused && (
        <div className="budget-line" data-testid="budget-line">
          <Codicon name="credit-card" />
          <span>Budget: {figures}</span>
          <ActionButton
            testId="budget-cap"
            label={`Cap ${name}'s spending`}
            title="Cap this agent at…"
            onPress={() => post({ type: "budgetAction", id: agentId, action: "cap" })}
          >
            Cap…
          </ActionButton>
          {/* Nothing capped: the race's spend is on this line (budget.spent), and so is its Race…. */}
          {budget.inGroup && !budget.group && raceCap}
        </div>
      )}
      {budget.group && !budget.paused && (
        <div className="budget-line budget-race" data-testid="budget-race">
          <Codicon name="versions" />
          <span>Budget of the {budget.group}</span>
          {raceCap}
        </div>
      )}
      {budget.brake && (
        <div className="budget-brake" data-testid="budget-brake" role="status">
          <Codicon name="warning" />
          <span>{budget.brake}</span>
        </div>
      )}
    </>
  );
}
