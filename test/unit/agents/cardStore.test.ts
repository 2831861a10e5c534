/**
 * One owner per card: the card store composes each card from its agent part and the live board
 * (real board, tracker and approval queue), tells a change once and only when the card changed,
 * and never asks the agents to send an update because something live changed (no loop).
 */
import { describe, expect, it } from "vitest";
import type { AgentChange } from "../../../src/agents/agentRegistry";
import { CardStore } from "../../../src/agents/cardStore";
import { LiveBoard } from "../../../src/agents/liveBoard";
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
  const board = new LiveBoard(new ToolCallTracker(), approvals);
  const agentChanges = new Emitter<AgentChange>();
  const hooks = new Emitter<string>();
  const known = new Map<string, AgentFacts>([["a1", facts("a1")]]);
  let looks = 0;
  // As the agent's own view does (displayStatus): an approval waiting makes the card need you.
  const view = (id: string): AgentFacts | undefined => {
    looks++;
    const base = known.get(id);
    if (!base) return undefined;
    return board.view(id).prompts.length > 0 ? { ...base, status: "needsYou", needsYou: { kind: "approval" } } : base;
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
  return { approvals, board, agentChanges, hooks, known, store, changed, removed, finished, agentsSent, update, looks: () => looks };
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

  it("a hook that changes nothing on the card sends nothing", () => {
    const { hooks, changed, update } = setup();
    update("a1");
    hooks.fire("a1");
    hooks.fire("a1");
    expect(changed).toHaveLength(1);
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
