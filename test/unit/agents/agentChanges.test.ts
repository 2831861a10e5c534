/**
 * What an agent's change does to the rest of the window, through the real tracker and approval
 * queue: an exited or closed agent's MCP calls end at once (a late Allow on their approval runs
 * nothing), a closed agent's prompts and commands terminal go.
 */
import { describe, expect, it } from "vitest";
import { followAgentChanges } from "../../../src/agents/agent/agentChanges";
import type { AgentChange } from "../../../src/agents/agent/agentRegistry";
import { forceFinish } from "../../../src/agents/tools/forceFinish";
import { ApprovalQueue } from "../../../src/core/mcp/approvalQueue";
import { ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import { jsonResult } from "../../../src/core/mcp/toolResult";
import { linkedResources } from "../../../src/core/tools/linkedResources";
import { Emitter } from "../../../src/core/util/emitter";
import type { AgentFacts } from "../../../src/shared/protocol";

function agent(id: string, status: AgentFacts["status"]): AgentFacts {
  return { id, name: id, status } as AgentFacts;
}

/** A tool call of `agentId` that waits on a command approval, as execute_command does. */
function callWaitingOnApproval(tracker: ToolCallTracker, approvals: ApprovalQueue, agentId: string) {
  let ran = false;
  const handler = tracker.wrapHandler<{ command: string }>({
    name: "execute_command",
    display: (a) => a.command,
    handler: async (args, context) => {
      const { id, promise } = approvals.enqueue("command", args.command, { agentId, callId: context.callId });
      context.linkApproval(id);
      if ((await promise) === "allow") ran = true;
      return jsonResult({ ran });
    },
  });
  const result = handler({ command: "touch marker" }, { agentId } as never);
  return { result, ran: () => ran };
}

/** The tracker starts a handler on the next microtask: let it reach its approval. */
const handlersStarted = () => new Promise((resolve) => setImmediate(resolve));

function setup() {
  const approvals = new ApprovalQueue();
  const tracker = new ToolCallTracker(linkedResources({ approvals } as never));
  const changes = new Emitter<AgentChange>();
  const cards = new Emitter<AgentFacts>();
  const seen: string[] = [];
  const sub = followAgentChanges({
    onDidChange: changes.event,
    onDidChangeCard: cards.event,
    tracker,
    permissions: { answeredElsewhere: (id, o) => (seen.push(`answeredElsewhere ${id} ${o?.before}`), 0), forgetAgent: (id) => seen.push(`forgetAgent ${id}`) },
    closeCommandsTerminal: (id) => seen.push(`closeTerminal ${id}`),
  });
  return { approvals, tracker, changes, cards, seen, sub };
}

describe("followAgentChanges", () => {
  it("an agent whose claude exited has its calls ended and its approval withdrawn: a late Allow runs nothing", async () => {
    const { approvals, tracker, cards, seen } = setup();
    const call = callWaitingOnApproval(tracker, approvals, "a");
    const other = callWaitingOnApproval(tracker, approvals, "b");
    await handlersStarted();
    expect(approvals.pending()).toHaveLength(2);
    cards.fire(agent("a", "exited"));
    await call.result;
    const late = approvals.pending().find((p) => p.agentId === "a");
    expect(late).toBeUndefined();
    expect(call.ran()).toBe(false);
    expect(tracker.calls().map((c) => c.agentId)).toEqual(["b"]);
    expect(seen).toEqual([]);
    // The other agent's call is untouched and still answerable.
    approvals.decide(approvals.pending()[0]!.id, "allow");
    await other.result;
    expect(other.ran()).toBe(true);
  });

  it("a closed agent: its calls end, its commands terminal and its prompts go", async () => {
    const { approvals, tracker, changes, seen } = setup();
    const call = callWaitingOnApproval(tracker, approvals, "a");
    await handlersStarted();
    expect(approvals.pending()).toHaveLength(1);
    changes.fire({ type: "removed", id: "a" });
    await call.result;
    expect(tracker.calls()).toEqual([]);
    expect(approvals.pending()).toEqual([]);
    expect(seen).toEqual(["closeTerminal a", "forgetAgent a"]);
  });

  it("a prompt answered in the terminal clears the panel's; disposing stops it all", () => {
    const { changes, seen, sub } = setup();
    changes.fire({ type: "permissionPromptLeft", agentId: "a", at: 1234 });
    sub.dispose();
    changes.fire({ type: "removed", id: "a" });
    expect(seen).toEqual(["answeredElsewhere a 1234"]);
  });
});

describe("forceFinish", () => {
  it("cancels or completes a call in flight, and says so in the log when it had already ended", async () => {
    const approvals = new ApprovalQueue();
    const tracker = new ToolCallTracker(linkedResources({ approvals } as never));
    const logged: string[] = [];
    const call = callWaitingOnApproval(tracker, approvals, "a");
    await handlersStarted();
    expect(approvals.pending()).toHaveLength(1);
    const id = tracker.calls()[0]!.id;
    expect(forceFinish(tracker, { info: (m) => logged.push(m) }, "cancel", id)).toBe(true);
    await call.result;
    expect(call.ran()).toBe(false);
    expect(approvals.pending()).toEqual([]);
    expect(forceFinish(tracker, { info: (m) => logged.push(m) }, "complete", id)).toBe(false);
    expect(logged).toEqual([`tool call ${id} had already finished; nothing to complete`]);
  });
});
