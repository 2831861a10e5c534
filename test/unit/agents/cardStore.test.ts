/**
 * One owner per card: the card store composes each card from its agent part and the live board
 * (real board, tracker and approval queue), tells a change once and only when the card changed,
 * and never asks the agents to send an update because something live changed (no loop).
 */
import { describe, expect, it } from "vitest";
import type { AgentChange } from "../../../src/agents/agent/agentRegistry";
import { CardStore } from "../../../src/agents/cards/cardStore";
import type { Agent } from "../../../src/agents/agent/agent";
import { AgentRegistry } from "../../../src/agents/agent/agentRegistry";
import { LiveBoard } from "../../../src/agents/cards/liveBoard";
import { ApprovalQueue } from "../../../src/core/mcp/approvalQueue";
import { ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import { Emitter } from "../../../src/core/util/emitter";
import type { AgentFacts, CardView } from "../../../src/shared/protocol";

function facts(id: string, over: Partial<AgentFacts> = {}): AgentFacts {
  const index = Number(id.replace(/\D/g, "")) || 1;
  return {
    id,
    name: `Agent #${index}`,
    index,
    status: "active",
    lastTurn: "none",
    tools: [],
    focused: false,
    retry: null,
    context: null,
    statusSource: "process",
    needsYou: null,
    reconnecting: false,
    exitMessage: null,
    ...over,
  };
}

function setup() {
  const approvals = new ApprovalQueue();
  const tracker = new ToolCallTracker();
  const board = new LiveBoard(tracker, approvals);
  const agentChanges = new Emitter<AgentChange>();
  const hooks = new Emitter<string>();
  const known = new Map<string, AgentFacts>([["a1", facts("a1")]]);
  // What the hooks say shows on the agent's rows (the agent's view reads the hook feed).
  const hookRows = new Map<string, AgentFacts["tools"]>();
  // As the agent's own view does (displayStatus): an approval waiting makes the card need you.
  const view = (id: string): AgentFacts | undefined => {
    const base = known.get(id);
    if (!base) return undefined;
    const withHooks = hookRows.has(id) ? { ...base, tools: hookRows.get(id)! } : base;
    return board.view(id).prompts.length > 0 ? { ...withHooks, status: "needsYou", needsYou: { kind: "approval" } } : withHooks;
  };
  const agents = { onDidChange: agentChanges.event, views: () => [...known.keys()].flatMap((id) => view(id) ?? []), view };
  const store = new CardStore({ agents, live: board, hooks: { onDidChange: hooks.event } });
  const changed: CardView[] = [];
  const removed: string[] = [];
  const finished: CardView[] = [];
  store.onDidChangeCard((card) => changed.push(card));
  store.onDidRemoveCard((id) => removed.push(id));
  store.onDidFinishTurn((card) => finished.push(card));
  const agentsSent: AgentChange[] = [];
  agentChanges.event((change) => agentsSent.push(change));
  const update = (id: string, over: Partial<AgentFacts> = {}) => {
    known.set(id, facts(id, over));
    agentChanges.fire({ type: "updated", agent: view(id)! });
  };
  return { approvals, tracker, board, agentChanges, hooks, hookRows, known, store, changed, removed, finished, agentsSent, update };
}

describe("CardStore", () => {
  it("composes one card from what the agent says and what is live on it, and tells it once", () => {
    const { store, changed, update } = setup();
    update("a1", { tools: [{ id: "t1", name: "Read", label: "Reading App.tsx", parent: null, outcome: "running", background: false }] });
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ id: "a1", status: "active", tools: [{ label: "Reading App.tsx" }], calls: [], prompts: [], worktree: null });
    expect(changed[0]).not.toHaveProperty("agentId");
    // The same card again is not news.
    update("a1", { tools: [{ id: "t1", name: "Read", label: "Reading App.tsx", parent: null, outcome: "running", background: false }] });
    expect(changed).toHaveLength(1);
    expect(store.cards()).toEqual([changed[0]]);
  });

  it("cards() has every agent there is, told or not (a reload's reconnecting cards once were not): the panel's first paint is never 'no agents yet'", () => {
    const { known, store, changed } = setup();
    known.set("a2", facts("a2", { reconnecting: true, status: "waiting" }));
    expect(changed).toEqual([]);
    expect(store.cards().map((card) => [card.id, card.reconnecting])).toEqual([
      ["a1", false],
      ["a2", true],
    ]);
  });

  it("an approval that opens changes the card once — prompt and 'needs you' together — without the agents sending an update", () => {
    const { approvals, changed, agentsSent, update } = setup();
    update("a1");
    agentsSent.length = 0;
    const { id } = approvals.enqueue("command", "rm -rf build", { agentId: "a1" });
    expect(changed).toHaveLength(2);
    expect(changed[1]).toMatchObject({ status: "needsYou", needsYou: { kind: "approval" }, prompts: [{ id, kind: "command", subject: "rm -rf build" }] });
    // No update went round through the agents: a live change never feeds back into them.
    expect(agentsSent).toEqual([]);
    approvals.decide(id, "deny");
    expect(changed).toHaveLength(3);
    expect(changed[2]).toMatchObject({ status: "active", needsYou: null, prompts: [] });
  });

  it("a hook that changes the agent's rows sends the card once; one that changes nothing sends nothing", () => {
    const { hooks, hookRows, changed, update } = setup();
    update("a1");
    hookRows.set("a1", [{ id: "t1", name: "Bash", label: "Running: npm test", parent: null, outcome: "running", background: false }]);
    hooks.fire("a1");
    expect(changed).toHaveLength(2);
    expect(changed[1]).toMatchObject({ tools: [{ label: "Running: npm test", outcome: "running" }] });
    hooks.fire("a1");
    hooks.fire("a1");
    expect(changed).toHaveLength(2);
  });

  it("a live call that comes before its agent makes no card; the agent's first card carries it", async () => {
    const { tracker, known, changed, update } = setup();
    known.delete("a1");
    const hang = tracker.wrapHandler({ name: "execute_command", display: () => "sleep 1000", handler: () => new Promise<never>(() => undefined) });
    void hang({}, { agentId: "a1" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(changed).toEqual([]);
    update("a1");
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ id: "a1", calls: [{ tool: "execute_command", display: "sleep 1000" }] });
  });

  it("a removed card is told once; the same id coming back is a new card, told whole", () => {
    const { agentChanges, changed, removed, update, known } = setup();
    update("a1");
    known.delete("a1");
    agentChanges.fire({ type: "removed", id: "a1" });
    expect(removed).toEqual(["a1"]);
    update("a1");
    expect(changed).toHaveLength(2);
    expect(changed[1]).toEqual(changed[0]);
  });

  it("a finished turn comes with the card as it is now, live part included", () => {
    const { agentChanges, approvals, finished, update } = setup();
    update("a1");
    approvals.enqueue("path", "/etc/hosts", { agentId: "a1" });
    agentChanges.fire({ type: "turnFinished", agent: facts("a1", { status: "waiting" }) });
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ id: "a1", status: "waiting", prompts: [{ kind: "path", subject: "/etc/hosts" }] });
  });

  it("something live for an agent it does not know makes no card", () => {
    const { approvals, changed } = setup();
    approvals.enqueue("command", "ls", { agentId: "ghost" });
    expect(changed).toEqual([]);
  });
});

describe("the registry's turn ends, with the card store looking in between", () => {
  /** A stand-in agent: the registry asks it for its view; the test says what it shows. */
  function stubAgent(id: string) {
    let shown: Partial<AgentFacts> = {};
    const agent = { id, index: 1, terminal: { name: id }, view: () => facts(id, shown) } as unknown as Agent;
    return { agent, show: (over: Partial<AgentFacts>) => (shown = over) };
  }

  it("a turn that ends is told once, whether the card store or the transcript saw it first", () => {
    const registry = new AgentRegistry({ load: () => [], save: async () => undefined }, { info: () => undefined, warn: () => undefined, error: () => undefined }, undefined);
    const told: string[] = [];
    registry.onDidChange((change) => told.push(change.type === "removed" || change.type === "permissionPromptLeft" ? change.type : `${change.type} ${change.agent.status}`));
    const { agent, show } = stubAgent("a1");
    registry.add(agent);
    show({ status: "active" });
    registry.emitUpdated(agent);
    show({ status: "waiting" });
    // A live change made the card store look first: the turn's end is told then, with no update.
    expect(registry.look(agent).status).toBe("waiting");
    registry.emitUpdated(agent);
    expect(told.filter((t) => t.startsWith("turnFinished"))).toEqual(["turnFinished waiting"]);
    // Told after the update that carries it, when the transcript is first.
    show({ status: "active" });
    registry.emitUpdated(agent);
    show({ status: "waiting" });
    registry.emitUpdated(agent);
    expect(told.slice(-2)).toEqual(["updated waiting", "turnFinished waiting"]);
    // Catching up (a restore reads old turns): no news.
    show({ status: "active" });
    registry.emitUpdated(agent, false);
    show({ status: "waiting" });
    registry.emitUpdated(agent, false);
    expect(told.filter((t) => t.startsWith("turnFinished"))).toHaveLength(2);
  });
});
