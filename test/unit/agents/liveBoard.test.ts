/**
 * The live part of each card: MCP calls in flight and prompts, put on the row of their transcript
 * tool_use. Real tracker and approval queue; transcript events as the interpreter emits them.
 */
import { describe, expect, it } from "vitest";
import { type PermissionPrompt, LiveBoard } from "../../../src/agents/liveBoard";
import { ApprovalQueue } from "../../../src/core/mcp/approvalQueue";
import { ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import { jsonResult } from "../../../src/core/mcp/toolResult";
import type { TranscriptEvent } from "../../../src/core/transcript/events";
import type { AgentLiveView } from "../../../src/shared/protocol";


function toolStart(id: string, name: string): TranscriptEvent {
  return { kind: "toolStart", id, name, input: {}, label: name, parent: null, at: 0 };
}

function setup() {
  const tracker = new ToolCallTracker();
  const approvals = new ApprovalQueue();
  let prompts: PermissionPrompt[] = [];
  const permissionListeners = new Set<() => void>();
  const permissions = {
    pending: () => prompts,
    onChange: (l: () => void) => (permissionListeners.add(l), () => permissionListeners.delete(l)),
  };
  const setPrompts = (next: PermissionPrompt[]) => {
    prompts = next;
    for (const l of permissionListeners) l();
  };
  const board = new LiveBoard(tracker, approvals, permissions);
  const sent: AgentLiveView[] = [];
  board.onChange((live) => sent.push(live));
  // A tool that waits until the test releases it (or the call is force-finished).
  const hang = tracker.wrapHandler("execute_command", (_args: { command: string }, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(jsonResult({})))), (a) => a.command);
  return { tracker, approvals, board, sent, hang, setPrompts };
}

describe("LiveBoard", () => {
  it("puts a call on its tool_use's row by the client's _meta id, and takes it off the moment it is force-finished", async () => {
    const { tracker, board, sent, hang } = setup();
    board.transcriptEvents("a1", [toolStart("toolu_1", "mcp__arcadia__execute_command")]);
    const result = hang({ command: "sleep 1000" }, { agentId: "a1", _meta: { "claudecode/toolUseId": "toolu_1" } });
    expect(sent.at(-1)).toMatchObject({ agentId: "a1", calls: [{ toolUseId: "toolu_1", tool: "execute_command", display: "sleep 1000" }] });
    expect(sent.at(-1)?.calls[0]?.completeHint).toMatch(/output so far/);

    tracker.completeCall(tracker.calls()[0]!.id);
    await result;
    expect(sent.at(-1)).toEqual({ agentId: "a1", calls: [], prompts: [] });
  });

  it("without _meta, matches the oldest pending tool_use of that tool, never one twice", () => {
    const { board, hang } = setup();
    board.transcriptEvents("a1", [toolStart("toolu_1", "mcp__arcadia__execute_command"), toolStart("toolu_2", "mcp__arcadia__execute_command")]);
    void hang({ command: "one" }, { agentId: "a1" });
    void hang({ command: "two" }, { agentId: "a1" });
    expect(board.view("a1").calls.map((c) => [c.display, c.toolUseId])).toEqual([["one", "toolu_1"], ["two", "toolu_2"]]);
    expect(board.view("a2").calls).toEqual([]);
  });

  it("puts an approval on the row of the call that asked, and a permission prompt on its tool_use", () => {
    const { approvals, board, hang, tracker, setPrompts } = setup();
    void hang({ command: "rm -rf build" }, { agentId: "a1", _meta: { "claudecode/toolUseId": "toolu_9" } });
    const callId = tracker.calls()[0]!.id;
    const asked = approvals.enqueue("command", "rm -rf build", { agentId: "a1", callId });
    setPrompts([{ id: "perm-1", agentId: "a1", toolUseId: "toolu_3", subject: "Bash: touch x", canAlwaysAllow: true }]);
    expect(board.view("a1").prompts).toEqual([
      { id: asked.id, kind: "command", subject: "rm -rf build", toolUseId: "toolu_9", canAlwaysAllow: false },
      { id: "perm-1", kind: "permission", subject: "Bash: touch x", toolUseId: "toolu_3", canAlwaysAllow: true },
    ]);
    approvals.decide(asked.id, "allow");
    setPrompts([]);
    expect(board.view("a1").prompts).toEqual([]);
  });

  it("a batch of 10 calls, 5 needing approval, arriving out of order, some without _meta: every prompt on its own row; a denial cascade leaves no stale row", () => {
    const { approvals, board, hang, tracker } = setup();
    const ids = Array.from({ length: 10 }, (_, i) => `toolu_${i}`);
    board.transcriptEvents("a1", ids.map((id) => toolStart(id, "mcp__arcadia__execute_command")));
    // Calls 5..9 carry the CLI's _meta id and arrive in reverse order; 0..4 carry none and arrive in order.
    for (const i of [9, 8, 7, 6, 5]) void hang({ command: `cmd ${i}` }, { agentId: "a1", _meta: { "claudecode/toolUseId": ids[i] } });
    for (const i of [0, 1, 2, 3, 4]) void hang({ command: `cmd ${i}` }, { agentId: "a1" });
    // Every odd call needs the user's approval.
    for (const call of tracker.calls()) {
      const n = Number(call.display.split(" ")[1]);
      if (n % 2 === 1) approvals.enqueue("command", call.display, { agentId: "a1", callId: call.id });
    }
    const view = board.view("a1");
    expect(view.calls.map((c) => [c.display, c.toolUseId]).sort()).toEqual(ids.map((id, i) => [`cmd ${i}`, id]).sort());
    expect(view.prompts.map((p) => [p.subject, p.toolUseId]).sort()).toEqual([1, 3, 5, 7, 9].map((i) => [`cmd ${i}`, ids[i]]).sort());

    // The user denies one in the terminal: the CLI ends it and the ones queued after it.
    board.transcriptEvents("a1", ids.slice(6).map((id) => ({ kind: "toolEnd", id, outcome: "interrupted", at: 1 }) as TranscriptEvent));
    void hang({ command: "late" }, { agentId: "a1" });
    // A later call without _meta never lands on a denied row (all pending ones are matched).
    expect(board.view("a1").calls.find((c) => c.display === "late")?.toolUseId).toBeNull();
  });
});
