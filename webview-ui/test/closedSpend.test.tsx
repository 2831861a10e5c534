/** The header's total does not drop when an agent is closed: the day's total keeps closed agents' spend, labelled. */
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { SessionUsageView } from "../../src/shared/protocol";
import { fromSaved, initialState, localDay, reduce, toSaved } from "../src/store";
import { agent, renderPanel, snapshot } from "./helpers";

const spent = (costUsd: number, output: number): SessionUsageView => ({
  tokens: { input: 1_000, output, cacheRead: 0, cacheWrite: 0 },
  costUsd,
  unpricedModels: [],
});

describe("spend does not vanish with a card", () => {
  it("closing an agent keeps its spend in the header's total ($0.22 stays $0.22), said as closed", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1, usage: spent(0.17, 9_000) }), agent({ index: 2, usage: spent(0.05, 1_000) })]));
    expect(screen.getByTestId("usage-total")).toHaveTextContent("12k tokens · ~$0.22");
    panel.send({ type: "cardRemoved", id: "agent-2" });
    expect(screen.getByTestId("usage-total")).toHaveTextContent("12k tokens · ~$0.22 · 1 closed");
    expect(screen.getByTestId("usage-total").title).toMatch(/1 agent closed today \(2k tokens · ~\$0\.05\)/);
    // Every agent closed: the day's spend is still there.
    panel.send({ type: "cardRemoved", id: "agent-1" });
    expect(screen.getByTestId("usage-total")).toHaveTextContent("12k tokens · ~$0.22 · 2 closed");
  });

  it("is kept in the view's saved state (a view shown again), and counts toward its own day only", () => {
    const day = new Date(2026, 10, 28, 15, 0).getTime();
    let state = reduce(initialState, snapshot([agent({ index: 1, usage: spent(0.1, 0) })]), day);
    state = reduce(state, { type: "cardRemoved", id: "agent-1" }, day);
    expect(state.closed).toEqual({ day: localDay(day), agents: 1, tokens: 1_000, costUsd: 0.1 });
    expect(fromSaved(toSaved(state)).closed).toEqual(state.closed);
    // The next day, a close starts the day's sum again.
    const nextDay = day + 24 * 3600_000;
    state = reduce(state, snapshot([agent({ index: 2, usage: spent(0.2, 0) })]), nextDay);
    state = reduce(state, { type: "cardRemoved", id: "agent-2" }, nextDay);
    expect(state.closed).toEqual({ day: localDay(nextDay), agents: 1, tokens: 1_000, costUsd: 0.2 });
  });

  it("a malformed saved spend is dropped, not shown", () => {
    const saved = { ...(toSaved(initialState) as object), closed: { day: "2026-11-28", agents: -1, tokens: "x", costUsd: 1 } };
    expect(fromSaved(saved).closed).toBeNull();
  });
});
