/**
 * One owner per card, one tick: the card store alone subscribes to every source (agents, calls,
 * approvals, hooks, extras), each change keyed by agent; it composes each dirty card once per
 * tick from the agent's part and the live board (real board, tracker and approval queue), tells
 * a change once and only when the card changed, tells a turn's end from its own latch on status,
 * and never asks the agents to send anything because something live changed (no loop).
 */
import { describe, expect, it } from "vitest";
import type { CardLiveFacts } from "../../../src/agents/agent/agent";
import type { AgentChange, AgentTouch, TranscriptEventsRead } from "../../../src/agents/agent/agentRegistry";
import { CardStore } from "../../../src/agents/cards/cardStore";
import { LiveBoard } from "../../../src/agents/cards/liveBoard";
import type { HookTool } from "../../../src/core/hooks";
import { ApprovalQueue } from "../../../src/core/mcp/approvalQueue";
import { ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import type { TranscriptEvent } from "../../../src/core/transcript";
import { Emitter } from "../../../src/core/util/emitter";
import type { AgentFacts, CardView } from "../../../src/shared/protocol";
import { agentFacts } from "../../support/agentFacts";

const facts = agentFacts;

function setup() {
  const approvals = new ApprovalQueue();
  const tracker = new ToolCallTracker();
  const lifecycle = new Emitter<AgentChange>();
  const touches = new Emitter<AgentTouch>();
  const reads = new Emitter<TranscriptEventsRead>();
  const hookChanges = new Emitter<string>();
  const hookRows = new Map<string, HookTool[]>();
  const known = new Map<string, AgentFacts>([["a1", facts("a1")]]);
  /** How many times the agents were asked for a part, and with what live facts (the last). */
  let looks = 0;
  let lastLive: CardLiveFacts | undefined;
  // As the agent's own view does: hook rows on its rows, and an approval waiting makes it need you.
  const view = (id: string, live?: CardLiveFacts): AgentFacts | undefined => {
    const base = known.get(id);
    if (!base) return undefined;
    looks++;
    lastLive = live;
    const tools = (live?.hookTools ?? []).map((t) => ({ id: t.id, name: t.name, label: t.name, parent: null, outcome: "running" as const, background: false }));
    const withHooks = tools.length > 0 ? { ...base, tools } : base;
    return live && live.promptKinds.length > 0 ? { ...withHooks, status: "needsYou", needsYou: { kind: "approval" } } : withHooks;
  };
  const agents = {
    onDidChange: lifecycle.event,
    onDidTouch: touches.event,
    onDidReadTranscript: reads.event,
    agentIds: () => [...known.keys()],
    view,
    agentInfo: (id: string) => (known.has(id) ? { sessionId: "s1" } : undefined),
  };
  const board = new LiveBoard({ calls: tracker, approvals, hooks: { tools: (id) => hookRows.get(id) ?? [], onDidChange: hookChanges.event } });
  const pending: (() => void)[] = [];
  const hooks = { tools: (id: string) => hookRows.get(id) ?? [], isCompacting: () => false, onDidChange: hookChanges.event };
  const store = new CardStore({ agents, board, hooks, schedule: (flush) => pending.push(flush) });
  /** Runs the tick the store asked for (what the microtask would run). */
  const tick = () => pending.splice(0).forEach((flush) => flush());
  const changed: CardView[] = [];
  const removed: string[] = [];
  const finished: CardView[] = [];
  store.onDidChangeCard((card) => changed.push(card));
  store.onDidRemoveCard((id) => removed.push(id));
  store.onDidFinishTurn((card) => finished.push(card));
  const update = (id: string, over: Partial<AgentFacts> = {}, news = true) => {
    known.set(id, facts(id, over));
    touches.fire({ agentId: id, news });
  };
  return {
    approvals,
    tracker,
    lifecycle,
    reads,
    hookChanges,
    hookRows,
    known,
    store,
    changed,
    removed,
    finished,
    update,
    tick,
    pending,
    looks: () => looks,
    lastLive: () => lastLive,
  };
}

describe("CardStore", () => {
  it("composes one card from what the agent says and what is live on it, and tells it once, at the tick", () => {
    const { store, changed, update, tick } = setup();
    update("a1", { lastTurn: "completed" });
    expect(changed).toEqual([]);
    tick();
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ id: "a1", status: "active", lastTurn: "completed", calls: [], prompts: [], worktree: null });
    expect(changed[0]).not.toHaveProperty("agentId");
    // The same card again is not news.
    update("a1", { lastTurn: "completed" });
    tick();
    expect(changed).toHaveLength(1);
    expect(store.cards()).toEqual([changed[0]]);
  });

  it("a batch of transcript records with 20 tool rows, plus their hooks, composes the card once in that tick", () => {
    const { store, reads, hookChanges, hookRows, update, tick, changed } = setup();
    update("a1");
    tick();
    const before = store.compositions;
    const events: TranscriptEvent[] = [];
    for (let i = 0; i < 20; i++) {
      events.push({ kind: "toolStart", id: `t${i}`, name: "Read", input: {}, parent: null } as unknown as TranscriptEvent);
      hookRows.set("a1", [...(hookRows.get("a1") ?? []), { id: `t${i}`, name: "Read" } as HookTool]);
      hookChanges.fire("a1");
      update("a1");
    }
    reads.fire({ agentId: "a1", events });
    expect(store.compositions).toBe(before);
    tick();
    expect(store.compositions - before).toBe(1);
    expect(changed.at(-1)?.tools).toHaveLength(20);
  });

  it("two agents changed in one tick: each composed once; a third, untouched, not at all", () => {
    const { store, update, tick, known } = setup();
    known.set("a2", facts("a2"));
    known.set("a3", facts("a3"));
    for (const id of ["a1", "a2", "a3"]) update(id);
    tick();
    const before = store.compositions;
    for (let i = 0; i < 5; i++) {
      update("a1", { lastTurn: "completed" });
      update("a2", { lastTurn: "completed" });
    }
    tick();
    expect(store.compositions - before).toBe(2);
  });

  it("cards() is what is true now: what was marked is composed first, and every agent there is has a card, told or not", () => {
    const { known, store, changed, update } = setup();
    known.set("a2", facts("a2", { reconnecting: true, status: "waiting" }));
    expect(store.cards().map((card) => [card.id, card.reconnecting])).toEqual([
      ["a1", false],
      ["a2", true],
    ]);
    update("a1", { lastTurn: "completed" });
    // Before the tick: the panel asking now gets the card as it is, not as it was last told.
    expect(store.card("a1")?.lastTurn).toBe("completed");
    expect(changed.map((c) => c.id)).toEqual(["a1"]);
  });

  it("an approval that opens changes the card once — prompt and 'needs you' together — without the agents being asked to send anything", () => {
    const { approvals, changed, update, tick } = setup();
    update("a1");
    tick();
    const { id } = approvals.enqueue("command", "rm -rf build", { agentId: "a1" });
    tick();
    expect(changed).toHaveLength(2);
    expect(changed[1]).toMatchObject({ status: "needsYou", needsYou: { kind: "approval" }, prompts: [{ id, kind: "command", subject: "rm -rf build" }] });
    approvals.decide(id, "deny");
    tick();
    expect(changed).toHaveLength(3);
    expect(changed[2]).toMatchObject({ status: "active", needsYou: null, prompts: [] });
  });

  it("the agent's part is given the live facts it shows (hook rows, prompt kinds): no closure into the board", () => {
    const { approvals, hookRows, hookChanges, update, tick, lastLive } = setup();
    update("a1");
    tick();
    hookRows.set("a1", [{ id: "t1", name: "Bash" } as HookTool]);
    hookChanges.fire("a1");
    approvals.enqueue("path", "/etc/hosts", { agentId: "a1" });
    tick();
    expect(lastLive()?.hookTools.map((t) => t.id)).toEqual(["t1"]);
    expect(lastLive()?.promptKinds).toEqual(["path"]);
  });

  it("a hook that changes the agent's rows sends the card once; one that changes nothing sends nothing", () => {
    const { hookChanges, hookRows, changed, update, tick } = setup();
    update("a1");
    tick();
    hookRows.set("a1", [{ id: "t1", name: "Bash" } as HookTool]);
    hookChanges.fire("a1");
    tick();
    expect(changed).toHaveLength(2);
    expect(changed[1]?.tools.map((t) => t.id)).toEqual(["t1"]);
    hookChanges.fire("a1");
    hookChanges.fire("a1");
    tick();
    expect(changed).toHaveLength(2);
  });

  it("a live call that comes before its agent makes no card; the agent's first card carries it", async () => {
    const { tracker, known, changed, update, tick } = setup();
    known.delete("a1");
    const hang = tracker.wrapHandler({ name: "execute_command", display: () => "sleep 1000", handler: () => new Promise<never>(() => undefined) });
    void hang({}, { agentId: "a1" });
    await new Promise((resolve) => setImmediate(resolve));
    tick();
    expect(changed).toEqual([]);
    update("a1");
    tick();
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ id: "a1", calls: [{ tool: "execute_command", display: "sleep 1000" }] });
  });

  it("an approval of one agent opening and closing composes that card alone, while others show calls and prompts of their own", async () => {
    const { approvals, tracker, known, store, changed, update, tick } = setup();
    const others = Array.from({ length: 10 }, (_, i) => `b${i}`);
    for (const id of others) known.set(id, facts(id));
    for (const id of ["a1", ...others]) update(id);
    // Each other agent has a call running and a prompt waiting: a change of theirs can change their card only.
    const hang = tracker.wrapHandler({ name: "execute_command", display: () => "sleep 1000", handler: () => new Promise<never>(() => undefined) });
    for (const id of others) {
      void hang({}, { agentId: id });
      approvals.enqueue("command", `rm -rf ${id}`, { agentId: id });
    }
    await new Promise((resolve) => setImmediate(resolve));
    tick();
    const before = store.compositions;
    const told = changed.length;
    const { id } = approvals.enqueue("command", "rm -rf build", { agentId: "a1" });
    tick();
    approvals.decide(id, "deny");
    tick();
    expect(store.compositions - before).toBe(2);
    expect(changed.slice(told).map((c) => [c.id, c.prompts.length])).toEqual([
      ["a1", 1],
      ["a1", 0],
    ]);
    // The others still show theirs.
    expect(store.cards().filter((c) => c.calls.length === 1 && c.prompts.length === 1)).toHaveLength(10);
  });

  it("a removed card is told once and not composed after; the same id coming back is a new card, told whole", () => {
    const { lifecycle, changed, removed, update, tick, known } = setup();
    update("a1");
    tick();
    update("a1", { lastTurn: "completed" });
    known.delete("a1");
    lifecycle.fire({ type: "removed", id: "a1" });
    tick();
    expect(removed).toEqual(["a1"]);
    expect(changed).toHaveLength(1);
    update("a1");
    tick();
    expect(changed).toHaveLength(2);
    expect(changed[1]).toEqual(changed[0]);
  });

  it("a turn's end (working → waiting) is told once, after the card's change, with the card as it is now; catching up is no news", () => {
    const { approvals, finished, changed, update, tick } = setup();
    update("a1", { status: "active" });
    tick();
    update("a1", { status: "waiting" });
    approvals.enqueue("path", "/etc/hosts", { agentId: "a1" });
    tick();
    expect(finished).toHaveLength(0); // an approval waiting: the card needs you, the turn is not over
    approvals.decide(approvals.pending()[0]!.id, "deny");
    tick();
    expect(finished).toHaveLength(0); // needsYou → waiting is no turn's end
    update("a1", { status: "active" });
    tick();
    update("a1", { status: "waiting" });
    const told = changed.length;
    tick();
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ id: "a1", status: "waiting" });
    // The change first (one), then the turn's end with the same card.
    expect(changed).toHaveLength(told + 1);
    expect(changed.at(-1)).toEqual(finished[0]);
    // Looked at again and again: still one.
    update("a1", { status: "waiting", lastTurn: "completed" });
    tick();
    expect(finished).toHaveLength(1);
    // Catching up (a restore reads old turns): no news.
    update("a1", { status: "active" }, false);
    tick();
    update("a1", { status: "waiting" }, false);
    tick();
    expect(finished).toHaveLength(1);
  });

  it("something live for an agent it does not know makes no card", () => {
    const { approvals, changed, tick } = setup();
    approvals.enqueue("command", "ls", { agentId: "ghost" });
    tick();
    expect(changed).toEqual([]);
  });

  it("asks for one flush per tick however many changes came", () => {
    const { update, pending, approvals } = setup();
    update("a1");
    update("a1");
    approvals.enqueue("command", "ls", { agentId: "a1" });
    expect(pending).toHaveLength(1);
  });
});

describe("CardStore, when a card cannot be composed", () => {
  it("reports it and still tells the other cards of that tick", () => {
    const lifecycle = new Emitter<AgentChange>();
    const touches = new Emitter<AgentTouch>();
    const reads = new Emitter<TranscriptEventsRead>();
    const view = (id: string): AgentFacts => {
      if (id === "broken") throw new Error("a bug in a view");
      return facts(id);
    };
    const agents = {
      onDidChange: lifecycle.event,
      onDidTouch: touches.event,
      onDidReadTranscript: reads.event,
      agentIds: () => ["broken", "a2"],
      view,
      agentInfo: () => undefined,
    };
    const errors: string[] = [];
    const board = new LiveBoard({ calls: new ToolCallTracker(), approvals: new ApprovalQueue() });
    const pending: (() => void)[] = [];
    const store = new CardStore({ agents, board, schedule: (flush) => pending.push(flush), onError: (m) => errors.push(m) });
    const told: string[] = [];
    store.onDidChangeCard((card) => told.push(card.id));
    touches.fire({ agentId: "broken", news: true });
    touches.fire({ agentId: "a2", news: true });
    pending.splice(0).forEach((flush) => flush());
    expect(told).toEqual(["a2"]);
    expect(errors).toEqual(["the card of broken could not be composed: a bug in a view"]);
  });
});
