/**
 * An agent's budget in the panel: paused at its cap, its overview line and its card say "Paused at
 * budget — $5.02 of $5.00" with Raise… and Stop (which ask the extension); a running agent's card
 * shows what it spent of its cap, its burn rate and when the cap is reached, and the line's tooltip
 * says the same; the runaway brake's note is on the card; an agent without a budget shows none. A
 * race member's card says what the race spent of its cap with Race… (Cap this race at…), and paused
 * at the race's cap it says "Paused at the race's budget" with Raise… and Stop.
 */
import { within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { BudgetView } from "../../src/shared/protocol";
import { agent, details, line, renderPanel, snapshot } from "./helpers";

const running: BudgetView = {
  paused: null,
  spent: "$1.20 of $5.00",
  rate: "$9.00/h",
  eta: "at this rate the cap is reached in 25 min",
  brake: null,
  group: null,
  inGroup: false,
};
const paused: BudgetView = {
  paused: "Paused at budget — $5.02 of $5.00",
  spent: "$5.02 of $5.00",
  rate: "$9.00/h",
  eta: null,
  brake: null,
  group: null,
  inGroup: false,
};

describe("an agent's budget", () => {
  it("paused: its line and its card say so, and Raise… and Stop ask the extension", async () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1, budget: paused }), agent({ index: 2 })]));
    expect(within(line("agent-1")).getByTestId("budget-paused")).toHaveTextContent("Paused at budget — $5.02 of $5.00");
    expect(within(details("agent-1")).getByTestId("budget-paused")).toHaveTextContent("Paused at budget — $5.02 of $5.00");
    await userEvent.click(within(line("agent-1")).getByTestId("budget-raise"));
    await userEvent.click(within(details("agent-1")).getByTestId("budget-stop"));
    expect(panel.posted).toContainEqual({ type: "budgetAction", id: "agent-1", action: "raise" });
    expect(panel.posted).toContainEqual({ type: "budgetAction", id: "agent-1", action: "stop" });
    // A click on Raise… is not a click on the line (which would show its terminal).
    expect(panel.posted.filter((m) => m.type === "focusAgent")).toEqual([]);
    expect(within(line("agent-2")).queryByTestId("budget-paused")).toBeNull();
  });

  it("running: its card shows spent of the cap, the rate and when the cap is reached, with Cap…; its line's tooltip too", async () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ budget: running })]));
    expect(within(details()).getByTestId("budget-line")).toHaveTextContent("Budget: $1.20 of $5.00 · $9.00/h · at this rate the cap is reached in 25 min");
    expect(within(line()).queryByTestId("budget-paused")).toBeNull();
    await userEvent.click(within(details()).getByTestId("budget-cap"));
    expect(panel.posted).toContainEqual({ type: "budgetAction", id: "agent-1", action: "cap" });
    const main = line().querySelector(".agent-line-main");
    expect(main?.getAttribute("title")).toContain("Budget: $1.20 of $5.00 · burning $9.00/h · at this rate the cap is reached in 25 min");
  });

  it("the runaway brake's note is on the card; an agent without a budget shows nothing of it", () => {
    const panel = renderPanel();
    const brake = "A sub-agent was denied: at most 5 run at once (arcadia.budget.maxSubagents)";
    panel.send(snapshot([agent({ index: 1, budget: { ...running, brake } }), agent({ index: 2 })]));
    expect(within(details("agent-1")).getByTestId("budget-brake")).toHaveTextContent(brake);
    expect(within(details("agent-2")).queryByTestId("budget-line")).toBeNull();
    expect(line("agent-2").querySelector(".agent-line-main")?.getAttribute("title")).toBe("Show Agent #2's terminal");
  });

  it("a race member: its card says what the race spent of its cap, with Race…; paused at the race's cap, Raise… and Stop", async () => {
    const panel = renderPanel();
    const inRace: BudgetView = { ...running, spent: "$0.30 (no cap on this agent)", eta: null, group: "race fix-title: $0.30 of $0.50", inGroup: true };
    const pausedByRace: BudgetView = { ...inRace, paused: "Paused at the race's budget — $0.52 of $0.50", group: "race fix-title: $0.52 of $0.50" };
    panel.send(snapshot([agent({ index: 1, budget: inRace }), agent({ index: 2, budget: pausedByRace }), agent({ index: 3, budget: running })]));
    expect(within(details("agent-1")).getByTestId("budget-race")).toHaveTextContent("Budget of the race fix-title: $0.30 of $0.50");
    await userEvent.click(within(details("agent-1")).getByTestId("budget-cap-race"));
    expect(panel.posted).toContainEqual({ type: "budgetAction", id: "agent-1", action: "capRace" });
    expect(within(details("agent-3")).queryByTestId("budget-race")).toBeNull();

    // Paused by the race: the line and the card say so; Raise… (the race's cap, chosen by the extension) and Stop.
    expect(within(line("agent-2")).getByTestId("budget-paused")).toHaveTextContent("Paused at the race's budget — $0.52 of $0.50");
    const card = within(details("agent-2"));
    expect(card.getByTestId("budget-paused")).toHaveTextContent("Paused at the race's budget — $0.52 of $0.50");
    expect(card.getByTestId("budget-raise")).toHaveTextContent("Raise…");
    expect(card.getByTestId("budget-stop")).toHaveTextContent("Stop");
    expect(card.queryByTestId("budget-race")).toBeNull();
    expect(card.queryByTestId("budget-line")).toBeNull();
    await userEvent.click(card.getByTestId("budget-raise"));
    await userEvent.click(card.getByTestId("budget-stop"));
    expect(panel.posted).toContainEqual({ type: "budgetAction", id: "agent-2", action: "raise" });
    expect(panel.posted).toContainEqual({ type: "budgetAction", id: "agent-2", action: "stop" });
  });

  it("a race member with no cap anywhere: one budget row says its spend and the race's, with Cap… and Race… on it", async () => {
    const panel = renderPanel();
    const uncapped: BudgetView = { ...running, spent: "< $0.01 · race fix-title: $0.01 · no caps", rate: null, eta: null, group: null, inGroup: true };
    panel.send(snapshot([agent({ index: 1, budget: uncapped })]));
    const card = within(details("agent-1"));
    expect(card.getAllByTestId("budget-line")).toHaveLength(1);
    expect(card.getByTestId("budget-line")).toHaveTextContent("Budget: < $0.01 · race fix-title: $0.01 · no caps");
    expect(card.queryByTestId("budget-race")).toBeNull();
    await userEvent.click(card.getByTestId("budget-cap-race"));
    await userEvent.click(card.getByTestId("budget-cap"));
    expect(panel.posted).toContainEqual({ type: "budgetAction", id: "agent-1", action: "capRace" });
    expect(panel.posted).toContainEqual({ type: "budgetAction", id: "agent-1", action: "cap" });
  });
});
