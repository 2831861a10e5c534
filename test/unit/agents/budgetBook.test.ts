/**
 * Each agent's budget from its real transcript (the session figures read the file): paused at its
 * cap with the words its card and the model read, a raise that lets it go on and survives a reload,
 * a pause that survives one too, a cap changed in settings applying at once, the day's cap pausing
 * another agent, unknown cost said as unknown (never $0), and the sub-agent brake's note.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BudgetBook } from "../../../src/agents/budget/budgetBook";
import type { BudgetState } from "../../../src/agents/budget/budgetState";
import { SessionCards } from "../../../src/agents/sessions/sessionCards";
import { follows, readInto } from "../../support/sessionReads";
import type { RawBudgetSettings } from "../../../src/core/budget";
import { localDay } from "../../../src/core/usage";
import { useTempDirs } from "../../support/tempDir";
import { waitForChange } from "../../support/waitFor";

const tempDir = useTempDirs();
const owned: { dispose(): void }[] = [];
afterEach(() => owned.splice(0).forEach((d) => d.dispose()));

let ids = 0;
/** One reply of claude-sonnet-4-5 ($3 in, $15 out per million), written now. */
const reply = (usage: { input?: number; output?: number }, model = "claude-sonnet-4-5") =>
  `${JSON.stringify({
    type: "assistant",
    timestamp: new Date().toISOString(),
    uuid: `u${++ids}`,
    message: {
      id: `msg_${ids}`,
      role: "assistant",
      model,
      content: [{ type: "text", text: "ok" }],
      usage: { input_tokens: usage.input ?? 0, output_tokens: usage.output ?? 0 },
    },
  })}\n`;

interface World {
  book: BudgetBook;
  cards: SessionCards;
  saved: { state: unknown };
  /** Changes the settings (as the user does); the book hears of it by settingsChanged(). */
  set(settings: RawBudgetSettings): void;
  /** Reads the agent's transcript (as a hook or a card change does) and waits until it has spent `usd`. */
  read(agentId: string, usd: number): Promise<void>;
}

function world(paths: Record<string, string>, settings: RawBudgetSettings, saved: { state: unknown } = { state: undefined }): World {
  const cards = new SessionCards(() => "/w");
  owned.push(cards);
  const held = { settings };
  const w: World = {
    cards,
    saved,
    set: (next) => void (held.settings = next),
    book: new BudgetBook({
      settings: () => held.settings,
      state: { load: () => saved.state, save: (s: BudgetState) => (saved.state = structuredClone(s)) },
      log: () => undefined,
    }),
    async read(agentId, usd) {
      await readInto(cards, agentId, paths[agentId]!);
      const spent = () => cards.spend(agentId, localDay(Date.now()))?.session?.usd;
      await waitForChange(
        (on) => cards.onDidChange(on).dispose,
        () => Math.abs((spent() ?? -1) - usd) < 1e-9,
        5000,
        `${agentId} to have spent $${usd}`,
      );
    },
  };
  owned.push(w.book, w.book.follow(cards));
  return w;
}

describe("an agent's budget", () => {
  it("pauses it at its cap, with the words the card and the model read; Raise… lets it go on, across a reload", async () => {
    const path = join(tempDir(), "session-a.jsonl");
    writeFileSync(path, reply({ output: 300_000 })); // $4.50
    const w = world({ a1: path }, { perAgent: 5 });
    await w.read("a1", 4.5);
    expect(w.book.verdict("a1")).toEqual({ paused: false });
    expect(w.book.budgetView("a1")).toMatchObject({ paused: null, spent: "$4.50 of $5.00" });

    appendFileSync(path, reply({ input: 174_000 })); // + $0.522
    await w.read("a1", 5.022);
    expect(w.book.budgetView("a1")?.paused).toBe("Paused at budget — $5.02 of $5.00");
    expect(w.book.refusal("a1")).toBe("Arcadia: this agent reached its $5.00 budget. Stop and wait; the user can raise it.");
    expect(w.book.typingRefusal("a1", "Agent #1")).toBe("nothing typed to Agent #1: Paused at budget — $5.02 of $5.00. Raise… its budget on its card first.");

    // A window reload: new figures read from the same transcript, the same settings, no raise: still paused.
    const reloaded = world({ a1: path }, { perAgent: 5 });
    await reloaded.read("a1", 5.022);
    expect(reloaded.book.verdict("a1")).toMatchObject({ paused: true, spentUsd: expect.closeTo(5.022, 6) });

    // A reload with what the pause saved: paused from the start, before its transcript is read again.
    const early = world({ a1: path }, { perAgent: 5 }, { state: structuredClone(w.saved.state) });
    follows(early.cards, "a1", path);
    expect(early.cards.spend("a1", localDay(Date.now()))?.session).toBeUndefined();
    expect(early.book.verdict("a1")).toMatchObject({ paused: true, spentUsd: expect.closeTo(5.022, 6) });

    expect(w.book.raise("a1", 5)).toBe("Raise it above what is spent ($5.02).");
    expect(w.book.raise("a1", 10)).toBeUndefined();
    expect(w.book.verdict("a1")).toEqual({ paused: false });
    expect(w.book.refusal("a1")).toBeUndefined();
    expect(w.book.budgetView("a1")).toMatchObject({ paused: null, spent: "$5.02 of $10.00" });

    // Another reload, with what the raise saved: it still runs.
    const afterRaise = world({ a1: path }, { perAgent: 5 }, w.saved);
    await afterRaise.read("a1", 5.022);
    expect(afterRaise.book.verdict("a1")).toEqual({ paused: false });
  });

  it("a cap changed in settings applies at once; a refused one is said and caps nothing", async () => {
    const path = join(tempDir(), "session-b.jsonl");
    writeFileSync(path, reply({ output: 100_000 })); // $1.50
    const w = world({ a1: path }, { perAgent: 1 });
    await w.read("a1", 1.5);
    expect(w.book.verdict("a1")).toMatchObject({ paused: true, capUsd: 1 });
    const told: string[][] = [];
    w.book.onDidChange((agentIds) => told.push(agentIds));
    w.set({ perAgent: 2 });
    expect(w.book.settingsChanged()).toEqual([]);
    expect(w.book.verdict("a1")).toEqual({ paused: false });
    expect(told).toContainEqual(["a1"]); // its card is composed again
    w.set({ perAgent: 0 });
    w.book.settingsChanged();
    expect(w.book.budgetView("a1")?.paused).toBe("Paused at budget — $1.50 of $0.00");
    w.set({ perAgent: -2 });
    expect(w.book.settingsChanged()[0]).toContain("arcadia.budget.perAgent is -2: a cap cannot be negative");
    expect(w.book.verdict("a1")).toEqual({ paused: false });
  });

  it("the day's cap pauses every agent once all of them together reach it", async () => {
    const dir = tempDir();
    const paths = { a1: join(dir, "one.jsonl"), a2: join(dir, "two.jsonl") };
    writeFileSync(paths.a1, reply({ output: 300_000 })); // $4.50
    writeFileSync(paths.a2, reply({ output: 100_000 })); // $1.50
    const w = world(paths, { perAgent: 5, perDay: 6 });
    await w.read("a1", 4.5);
    await w.read("a2", 1.5);
    expect(w.book.verdict("a2")).toEqual({ paused: true, scope: "day", capUsd: 6, spentUsd: 6 });
    expect(w.book.budgetView("a2")?.paused).toBe("Paused at budget — $6.00 of today's $6.00");
    expect(w.book.refusal("a1")).toBe("Arcadia: the agents of this workspace reached today's $6.00 budget. Stop and wait; the user can raise it.");
    expect(w.book.summary()).toContain("today $6.00 of $6.00");
    // Raise… on a card paused by the day's cap raises today's cap.
    expect(w.book.raise("a2", 8)).toBeUndefined();
    expect(w.book.verdict("a1")).toEqual({ paused: false });
    expect((w.saved.state as BudgetState).dayRaise?.capUsd).toBe(8);
  });

  it("an agent closed today still counts for today's cap, after a reload too", async () => {
    const dir = tempDir();
    const paths = { a1: join(dir, "gone.jsonl"), a2: join(dir, "stays.jsonl") };
    writeFileSync(paths.a1, reply({ output: 300_000 })); // $4.50
    writeFileSync(paths.a2, reply({ output: 100_000 })); // $1.50
    const w = world(paths, { perDay: 6 });
    await w.read("a1", 4.5);
    await w.read("a2", 1.5);
    expect(w.book.verdict("a2")).toMatchObject({ paused: true, scope: "day" });
    // Agent 1's card is closed: the session figures and the book forget it, its spend today stays.
    w.cards.forget("a1");
    w.book.forget("a1");
    expect(w.book.verdict("a2")).toMatchObject({ paused: true, scope: "day", spentUsd: 6 });
    const reloaded = world({ a2: paths.a2 }, { perDay: 6 }, { state: structuredClone(w.saved.state) });
    await reloaded.read("a2", 1.5);
    expect(reloaded.book.verdict("a2")).toMatchObject({ paused: true, scope: "day", spentUsd: 6 });
  });

  it("holds a queue's next agent once today's cap is reached (a new agent has spent nothing of its own), and lets it start below it", async () => {
    const dir = tempDir();
    const paths = { a1: join(dir, "a1.jsonl") };
    writeFileSync(paths.a1, reply({ output: 300_000 })); // $4.50
    const w = world(paths, { perDay: 6 });
    await w.read("a1", 4.5);
    expect(w.book.newAgentHold()).toBeUndefined();
    w.set({ perDay: 4 });
    w.book.settingsChanged();
    expect(w.book.newAgentHold()).toBe("today's $4.00 budget is reached ($4.50 spent)");
  });

  it("a cost it cannot price is said as unknown, never as $0", async () => {
    const dir = tempDir();
    const paths = { fresh: join(dir, "fresh.jsonl"), odd: join(dir, "odd.jsonl") };
    writeFileSync(paths.fresh, "");
    writeFileSync(paths.odd, reply({ output: 100_000 }) + reply({ output: 5_000_000 }, "claude-unknown-9"));
    const w = world(paths, { perAgent: 5 });
    await w.read("odd", 1.5);
    follows(w.cards, "fresh", paths.fresh);
    expect(w.book.budgetView("fresh")?.spent).toBe("unknown (no usage read yet) of $5.00");
    expect(w.book.budgetView("odd")?.spent).toBe("$1.50 + tokens of models without a price of $5.00");
  });

  it("Cap this agent at…: its own cap, below what it spent pauses it now (Pause); kept for its session", async () => {
    const path = join(tempDir(), "session-c.jsonl");
    writeFileSync(path, reply({ output: 100_000 })); // $1.50
    const w = world({ a1: path }, {});
    await w.read("a1", 1.5);
    expect(w.book.budgetView("a1")).toBeNull();
    expect(w.book.capAgent("a1", 4)).toBeUndefined();
    expect(w.book.budgetView("a1")).toMatchObject({ paused: null, spent: "$1.50 of $4.00" });
    expect(w.book.pauseNow("a1")).toBeUndefined();
    expect(w.book.budgetView("a1")?.paused).toBe("Paused at budget — $1.50 of $1.50");
    expect(w.book.capAgent("a1", -1)).toBe("A cap is a dollar amount, 0 or more.");
    expect((w.saved.state as BudgetState).raises).toEqual({ "session-c": 1.5 });
  });

  it("says on the card that a sub-agent was denied (until the agent is idle), or that it runs away", () => {
    const w = world({}, {});
    w.book.denied("a1", { kind: "subagents", limit: 5, toolName: "Agent" });
    expect(w.book.budgetView("a1")?.brake).toBe("A sub-agent was denied: at most 5 run at once (arcadia.budget.maxSubagents)");
    w.book.settled("a1");
    expect(w.book.budgetView("a1")).toBeNull();
    w.book.runaway("a1", "more than 40 tool calls a minute for 3 minutes");
    expect(w.book.budgetView("a1")?.brake).toBe("Running away? more than 40 tool calls a minute for 3 minutes");
  });
});
