/**
 * The header's total does not drop when an agent is closed: the extension keeps the day's closed
 * spend (agents/cards/closedSpend.ts) and sends it in the frame that removes the card and in every
 * snapshot, so a reloaded window's page shows it too.
 */
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ClosedSpend, SessionUsageView } from "../../src/shared/protocol";
import { fromSaved, initialState, reduce, toSaved } from "../src/store";
import { agent, renderPanel, snapshot } from "./helpers";

const spent = (costUsd: number, output: number): SessionUsageView => ({
  tokens: { input: 1_000, output, cacheRead: 0, cacheWrite: 0 },
  costUsd,
  unpricedModels: [],
});

const closedToday = (agents: number, tokens: number, costUsd: number): ClosedSpend => ({ day: "2026-11-29", agents, tokens, costUsd });

describe("spend does not vanish with a card", () => {
  it("closing an agent keeps its spend in the header's total ($0.22 stays $0.22), said as closed", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1, usage: spent(0.17, 9_000) }), agent({ index: 2, usage: spent(0.05, 1_000) })]));
    expect(screen.getByTestId("usage-total")).toHaveTextContent("12k tokens · ~$0.22");
    panel.send({ type: "cardsChanged", changed: [], removed: ["agent-2"], closed: closedToday(1, 2_000, 0.05) });
    expect(screen.getByTestId("usage-total")).toHaveTextContent("12k tokens · ~$0.22 · 1 closed");
    expect(screen.getByTestId("usage-total").title).toMatch(/1 agent closed today \(2k tokens · ~\$0\.05\)/);
    // Every agent closed: the day's spend is still there.
    panel.send({ type: "cardsChanged", changed: [], removed: ["agent-1"], closed: closedToday(2, 12_000, 0.22) });
    expect(screen.getByTestId("usage-total")).toHaveTextContent("12k tokens · ~$0.22 · 2 closed");
  });

  it("a window reloaded: the page's first snapshot brings the closed part back, whatever the page had saved", () => {
    const panel = renderPanel();
    const reloaded = { ...snapshot([agent({ index: 1, usage: spent(0.17, 9_000) })]), closed: closedToday(1, 2_000, 0.05) };
    panel.send(reloaded);
    expect(screen.getByTestId("usage-total")).toHaveTextContent("12k tokens · ~$0.22 · 1 closed");
  });

  it("a frame without removals keeps the closed part; a new day's snapshot without one drops it", () => {
    let state = reduce(initialState, { ...snapshot([agent({ index: 1, usage: spent(0.1, 0) })]), closed: closedToday(1, 1_000, 0.1) });
    state = reduce(state, { type: "cardsChanged", changed: [agent({ index: 1, usage: spent(0.2, 0) })], removed: [] });
    expect(state.closed).toEqual(closedToday(1, 1_000, 0.1));
    expect(fromSaved(toSaved(state)).closed).toEqual(state.closed);
    state = reduce(state, { ...snapshot(state.cards), closed: null });
    expect(state.closed).toBeNull();
  });

  it("a malformed closed spend, sent or saved, is dropped, not shown", () => {
    const bad = { day: "2026-11-28", agents: -1, tokens: "x", costUsd: 1 } as unknown as ClosedSpend;
    expect(reduce(initialState, { ...snapshot([]), closed: bad }).closed).toBeNull();
    const saved = { ...(toSaved(initialState) as object), closed: bad };
    expect(fromSaved(saved).closed).toBeNull();
  });
});
