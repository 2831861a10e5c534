/**
 * The header's total keeps what closed agents spent, after a window reload too (issue 33, item 13):
 * the extension keeps the day's sum, saves it as each agent closes, and sends it in the frame that
 * removes the card and in every snapshot.
 */
import { describe, expect, it } from "vitest";
import { ClosedSpendTally, type ClosedSpendStore } from "../../../src/agents/cards/closedSpend";
import { localDay } from "../../../src/core/usage";
import { Emitter, ManualClock } from "../../../src/core/util";
import type { CardView, ExtensionMessage } from "../../../src/shared/protocol";
import { followCards, panelSnapshot } from "../../../src/vscode/panel/cardFeed";

const card = (index: number, costUsd?: number, output = 0) =>
  ({
    id: `agent-${index}`,
    index,
    status: "waiting",
    prompts: [],
    calls: [],
    tools: [],
    sharedFiles: [],
    usage: costUsd === undefined ? null : { tokens: { input: 1_000, output, cacheRead: 0, cacheWrite: 0 }, costUsd, unpricedModels: [] },
  }) as unknown as CardView;

/** A workspace state that outlives the window (what a reload keeps). */
function workspaceState(initial?: unknown): ClosedSpendStore & { value: unknown } {
  const state = { value: initial, load: () => state.value, save: (v: unknown) => void (state.value = structuredClone(v)) };
  return state;
}

function window(store: ClosedSpendStore, now: () => number) {
  const changed = new Emitter<CardView>();
  const removed = new Emitter<string>();
  const tally = new ClosedSpendTally({ onDidChangeCard: changed.event, onDidRemoveCard: removed.event }, store, now);
  return { tally, changed, removed, show: (c: CardView) => changed.fire(c), close: (id: string) => removed.fire(id) };
}

const noon = new Date(2026, 10, 29, 12, 0).getTime();

describe("closed agents' spend, kept by the extension", () => {
  it("an agent closed adds its last spend to the day's sum; one closed without known spend adds nothing", () => {
    const w = window(workspaceState(), () => noon);
    w.show(card(1, 0.05, 500));
    w.show(card(1, 0.17, 9_000));
    w.show(card(2));
    expect(w.tally.today()).toBeNull();
    w.close("agent-1");
    w.close("agent-2");
    expect(w.tally.today()).toEqual({ day: localDay(noon), agents: 1, tokens: 10_000, costUsd: 0.17 });
  });

  it("survives a window reload: a new window reads the saved sum, and its reconnected cards are not counted again", () => {
    const state = workspaceState();
    const before = window(state, () => noon);
    before.show(card(1, 0.17, 9_000));
    before.show(card(2, 0.05, 1_000));
    before.close("agent-2");
    before.tally.dispose();

    const after = window(state, () => noon + 60_000);
    expect(after.tally.today()).toEqual({ day: localDay(noon), agents: 1, tokens: 2_000, costUsd: 0.05 });
    after.show(card(1, 0.17, 9_000));
    expect(after.tally.today()?.agents).toBe(1);
    after.close("agent-1");
    expect(after.tally.today()).toMatchObject({ day: localDay(noon), agents: 2, tokens: 12_000 });
    expect(after.tally.today()?.costUsd).toBeCloseTo(0.22);
  });

  it("counts toward its own day: the next day starts at nothing, and its first close starts a new sum", () => {
    let now = noon;
    const w = window(workspaceState(), () => now);
    w.show(card(1, 0.1));
    w.show(card(2, 0.2));
    w.close("agent-1");
    now = noon + 24 * 3600_000;
    expect(w.tally.today()).toBeNull();
    w.close("agent-2");
    expect(w.tally.today()).toEqual({ day: localDay(now), agents: 1, tokens: 1_000, costUsd: 0.2 });
  });

  it("a malformed saved sum starts the day at nothing instead of showing it", () => {
    const w = window(workspaceState({ day: localDay(noon), agents: -1, tokens: "x", costUsd: 1 }), () => noon);
    expect(w.tally.today()).toBeNull();
  });

  it("the page gets the sum in the frame that removes the card, and in every snapshot", () => {
    const w = window(workspaceState(), () => noon);
    const clock = new ManualClock(1000);
    const posted: ExtensionMessage[] = [];
    const source = { cards: () => [], onDidChangeCard: w.changed.event, onDidRemoveCard: w.removed.event, closedToday: () => w.tally.today() };
    followCards(source, (m) => posted.push(m), clock);
    w.show(card(1, 0.17, 9_000));
    clock.advance(0);
    w.close("agent-1");
    clock.advance(100);
    const frame = posted.at(-1);
    expect(frame).toMatchObject({ type: "cardsChanged", removed: ["agent-1"], closed: { agents: 1, costUsd: 0.17 } });
    expect(panelSnapshot(source, null).closed).toMatchObject({ agents: 1, tokens: 10_000 });
  });
});
