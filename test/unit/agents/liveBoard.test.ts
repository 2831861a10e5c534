/**
 * The live part of each card: MCP calls in flight and prompts, put on the row of their transcript
 * tool_use. Real tracker and approval queue; transcript events as the interpreter emits them.
 */
import { describe, expect, it } from "vitest";
import { type AgentLiveView, type PermissionPrompt, LiveBoard } from "../../../src/agents/cards/liveBoard";
import { ApprovalQueue } from "../../../src/core/mcp/approvalQueue";
import { GENERIC_COMPLETE_HINT, ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import { jsonResult } from "../../../src/core/mcp/toolResult";
import { completeWithOutputSoFar } from "../../../src/core/toolDeclarations";
import type { TranscriptEvent } from "../../../src/core/transcript/events";
import { Emitter } from "../../../src/core/util/emitter";
import { CardStore } from "../../../src/agents/cards/cardStore";
import type { TranscriptEventsRead } from "../../../src/agents/agent/agentRegistry";
import type { AgentFacts, CardView } from "../../../src/shared/protocol";

/** Agents the store knows: any it is asked about, with nothing of their own (the live part is under test). */
function everyAgent() {
  const nothing = new Emitter<never>();
  const reads = new Emitter<TranscriptEventsRead>();
  const known = new Set<string>();
  const view = (id: string): AgentFacts => {
    known.add(id);
    const facts = { id, name: id, index: 1, status: "active" as const, lastTurn: "none" as const, tools: [], focused: false, retry: null, context: null };
    return { ...facts, statusSource: "process", needsYou: null, reconnecting: false, exitMessage: null };
  };
  const agents = {
    onDidChange: nothing.event,
    onDidTouch: nothing.event,
    onDidReadTranscript: reads.event,
    agentIds: () => [...known],
    view,
    agentInfo: () => undefined,
  };
  return { agents, read: (agentId: string, events: TranscriptEvent[]) => reads.fire({ agentId, events }) };
}

/** The card's live part, as the board gives it. */
function livePart(card: CardView): AgentLiveView {
  const { calls, prompts, sharedFiles, worktree, sessionEdits, usage, limit, history, stillRunning, reviewComments, race } = card;
  const optional = { usage, limit, history, stillRunning, reviewComments, race };
  const present = Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined));
  return { agentId: card.id, calls, prompts, sharedFiles, worktree, sessionEdits, ...present };
}

function toolStart(id: string, name: string): TranscriptEvent {
  return { kind: "toolStart", id, name, input: {}, label: name, action: name, parent: null, at: 0 };
}

function setup() {
  const tracker = new ToolCallTracker();
  const approvals = new ApprovalQueue();
  let prompts: PermissionPrompt[] = [];
  const permissionsChanged = new Emitter<void>();
  const permissions = { pending: () => prompts, onDidChange: permissionsChanged.event };
  const setPrompts = (next: PermissionPrompt[]) => {
    prompts = next;
    permissionsChanged.fire();
  };
  let now = 1_000;
  const hookChanged = new Emitter<string>();
  let hookTools: { id: string; outcome?: string }[] = [];
  const hooks = { tools: () => hookTools, onDidChange: hookChanged.event };
  const board = new LiveBoard({ calls: tracker, approvals, permissions, hooks }, () => now);
  // The card store over it (every agent known, each tick run at once): what it sends is each card's live part.
  const { agents, read } = everyAgent();
  const store = new CardStore({ agents, board, schedule: (flush) => flush() });
  const setNow = (ms: number) => (now = ms);
  const hookSays = (agentId: string, tools: { id: string; outcome?: string }[]) => {
    hookTools = tools;
    hookChanged.fire(agentId);
  };
  const sent: AgentLiveView[] = [];
  store.onDidChangeCard((card) => sent.push(livePart(card)));
  // A tool that waits until the test releases it (or the call is force-finished).
  const hang = tracker.wrapHandler({
    name: "execute_command",
    handler: (_args: { command: string }, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(jsonResult({})))),
    display: (a) => a.command,
    complete: completeWithOutputSoFar,
  });
  return { tracker, approvals, board, store, read, sent, hang, setPrompts, permissionsChanged, setNow, hookSays };
}

describe("LiveBoard", () => {
  it("puts a call on its tool_use's row by the client's _meta id, and takes it off the moment it is force-finished", async () => {
    const { tracker, sent, hang, read } = setup();
    read("a1", [toolStart("toolu_1", "mcp__arcadia__execute_command")]);
    const result = hang({ command: "sleep 1000" }, { agentId: "a1", _meta: { "claudecode/toolUseId": "toolu_1" } });
    expect(sent.at(-1)).toMatchObject({ agentId: "a1", calls: [{ toolUseId: "toolu_1", tool: "execute_command", display: "sleep 1000" }] });
    expect(sent.at(-1)?.calls[0]?.completeHint).toMatch(/output so far/);

    tracker.completeCall(tracker.calls()[0]!.id);
    await result;
    expect(sent.at(-1)).toEqual({ agentId: "a1", calls: [], prompts: [], sharedFiles: [], worktree: null, sessionEdits: null });
  });

  it("shows on each call the Complete its tool declared, and the generic one for a tool that declared none", () => {
    const { tracker, board, hang } = setup();
    const never = () => new Promise<never>(() => undefined);
    void hang({ command: "sleep 1000" }, { agentId: "a1" });
    const rowsSoFar = { hint: "Return the rows found so far", run: () => ({ kind: "nothingPartial" as const }) };
    void tracker.wrapHandler({ name: "query_rows", handler: never, display: () => "SELECT 1", complete: rowsSoFar })({}, { agentId: "a1" });
    void tracker.wrapHandler({ name: "get_diagnostics", handler: never, display: () => "src/a.ts" })({}, { agentId: "a1" });
    expect(board.view("a1").calls.map((c) => [c.tool, c.completeHint])).toEqual([
      ["execute_command", completeWithOutputSoFar.hint],
      ["query_rows", "Return the rows found so far"],
      ["get_diagnostics", GENERIC_COMPLETE_HINT],
    ]);
  });

  it("once its card store is disposed, nothing more is sent and nothing listens to its sources", () => {
    const { store, sent, hang, setPrompts, permissionsChanged } = setup();
    expect(permissionsChanged.hasListeners).toBe(true);
    store.dispose();
    void hang({ command: "sleep 1000" }, { agentId: "a1" });
    setPrompts([{ id: "perm-1", agentId: "a1", subject: "Bash: touch x", canAlwaysAllow: false }]);
    expect(sent).toEqual([]);
    expect(permissionsChanged.hasListeners).toBe(false);
  });

  it("without _meta, matches the oldest pending tool_use of that tool, never one twice", () => {
    const { board, hang, read } = setup();
    read("a1", [toolStart("toolu_1", "mcp__arcadia__execute_command"), toolStart("toolu_2", "mcp__arcadia__execute_command")]);
    void hang({ command: "one" }, { agentId: "a1" });
    void hang({ command: "two" }, { agentId: "a1" });
    expect(board.view("a1").calls.map((c) => [c.display, c.toolUseId])).toEqual([
      ["one", "toolu_1"],
      ["two", "toolu_2"],
    ]);
    expect(board.view("a2").calls).toEqual([]);
  });

  it("gives a request to leave Claude Code's sandbox its reason on the card: the call's own description", () => {
    const { board, setPrompts } = setup();
    const leave = { command: "curl https://example.com", description: "Fetch the release notes", dangerouslyDisableSandbox: true };
    setPrompts([
      {
        id: "perm-1",
        agentId: "a1",
        toolUseId: "toolu_1",
        subject: "Bash: curl https://example.com",
        canAlwaysAllow: false,
        toolName: "Bash",
        toolInput: leave,
      },
      {
        id: "perm-2",
        agentId: "a1",
        toolUseId: "toolu_2",
        subject: "Bash: npm test",
        canAlwaysAllow: true,
        toolName: "Bash",
        toolInput: { command: "npm test" },
      },
    ]);
    const [leaving, plain] = board.view("a1").prompts;
    expect(leaving?.reason).toBe("asks to run outside Claude Code's sandbox (no confinement: your files, network and keys): Fetch the release notes");
    expect(plain && "reason" in plain).toBe(false);
  });

  it("puts an approval on the row of the call that asked, and a permission prompt on its tool_use", () => {
    const { approvals, board, hang, tracker, setPrompts } = setup();
    void hang({ command: "rm -rf build" }, { agentId: "a1", _meta: { "claudecode/toolUseId": "toolu_9" } });
    const callId = tracker.calls()[0]!.id;
    const asked = approvals.enqueue("command", "rm -rf build", { agentId: "a1", callId, reason: "it is not on arcadia.mcp.allowedCommands" });
    setPrompts([{ id: "perm-1", agentId: "a1", toolUseId: "toolu_3", subject: "Bash: touch x", canAlwaysAllow: true }]);
    expect(board.view("a1").prompts).toEqual([
      {
        id: asked.id,
        kind: "command",
        subject: "rm -rf build",
        reason: "it is not on arcadia.mcp.allowedCommands",
        toolUseId: "toolu_9",
        canAlwaysAllow: false,
      },
      { id: "perm-1", kind: "permission", subject: "Bash: touch x", toolUseId: "toolu_3", canAlwaysAllow: true },
    ]);
    approvals.decide(asked.id, "allow");
    setPrompts([]);
    expect(board.view("a1").prompts).toEqual([]);
  });

  it("a batch of 10 calls, 5 needing approval, arriving out of order, some without _meta: every prompt on its own row; a denial cascade leaves no stale row", () => {
    const { approvals, board, hang, tracker, read } = setup();
    const ids = Array.from({ length: 10 }, (_, i) => `toolu_${i}`);
    read(
      "a1",
      ids.map((id) => toolStart(id, "mcp__arcadia__execute_command")),
    );
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
    read(
      "a1",
      ids.slice(6).map((id) => ({ kind: "toolEnd", id, outcome: "interrupted", at: 1 }) as TranscriptEvent),
    );
    void hang({ command: "late" }, { agentId: "a1" });
    // A later call without _meta never lands on a denied row (all pending ones are matched).
    expect(board.view("a1").calls.find((c) => c.display === "late")?.toolUseId).toBeNull();
  });

  it("a call waiting for its approval has no running clock and no Complete; once allowed it runs from that moment, and its row knows how long it waited", () => {
    const { approvals, board, hang, tracker, setNow } = setup();
    setNow(10_000);
    void hang({ command: "rm -rf build" }, { agentId: "a1", _meta: { "claudecode/toolUseId": "toolu_w" } });
    const callId = tracker.calls()[0]!.id;
    const asked = approvals.enqueue("command", "rm -rf build", { agentId: "a1", callId });
    expect(board.view("a1").calls[0]).toMatchObject({ startedAt: expect.any(Number), runningSince: null });
    setNow(22_000);
    approvals.decide(asked.id, "allow");
    expect(board.view("a1").calls[0]?.runningSince).toBe(22_000);
    expect(board.waits.of("a1").get("toolu_w")).toEqual({ since: 10_000, until: 22_000 });
  });

  it("a permission prompt's wait is closed when it goes, and a hook saying the call ran marks it allowed (not denied)", () => {
    const { board, setPrompts, setNow, hookSays, read } = setup();
    setNow(5_000);
    setPrompts([{ id: "perm-1", agentId: "a1", toolUseId: "toolu_p", subject: "Bash: touch x", canAlwaysAllow: false }]);
    setNow(9_000);
    setPrompts([]);
    expect(board.waits.of("a1").get("toolu_p")).toEqual({ since: 5_000, until: 9_000 });
    hookSays("a1", [{ id: "toolu_p", outcome: "done" }]);
    expect(board.waits.of("a1").get("toolu_p")?.ran).toBe(true);
    // The next turn's prompt drops the waits of the calls before it.
    read("a1", [{ kind: "prompt", text: "next", source: "user", at: 10_000 }]);
    expect(board.waits.of("a1").size).toBe(0);
  });

  it("a command left running after Complete has run since its call was allowed: the wait for the user is not counted (issue 33: 'Still running 2m 04s')", () => {
    const { approvals, hang, tracker } = setup();
    let now = 10_000;
    const running: { id: string; agentId: string; toolUseId?: string; display: string; startedAt: number }[] = [];
    const changed = new Emitter<string[]>();
    const stillRunning = { of: (agentId: string) => running.filter((c) => c.agentId === agentId), onDidChange: changed.event };
    const board = new LiveBoard({ calls: tracker, approvals, extras: { stillRunning } }, () => now);
    void hang({ command: "npm run dev" }, { agentId: "a1", _meta: { "claudecode/toolUseId": "toolu_d" } });
    const asked = approvals.enqueue("command", "npm run dev", { agentId: "a1", callId: tracker.calls()[0]!.id });
    board.view("a1");
    // The user answers after 90 s; the command runs 38 s, then Complete leaves it running.
    now = 100_000;
    approvals.decide(asked.id, "allow");
    board.view("a1");
    now = 138_000;
    running.push({ id: "term-1", agentId: "a1", toolUseId: "toolu_d", display: "npm run dev", startedAt: 10_000 });
    expect(board.view("a1").stillRunning).toEqual([{ id: "term-1", toolUseId: "toolu_d", display: "npm run dev", startedAt: 100_000 }]);
    // A later turn drops the call's wait: the time it ran from stays.
    board.transcriptEvents("a1", [{ kind: "prompt", text: "next", source: "user", at: 200_000 }]);
    expect(board.view("a1").stillRunning?.[0]?.startedAt).toBe(100_000);
  });

  it("a call with no row to sit on (no tool_use known) also runs from the moment it was allowed, and so does the command it leaves running", () => {
    const { approvals, hang, tracker } = setup();
    let now = 10_000;
    const running: { id: string; callId: string; agentId: string; display: string; startedAt: number }[] = [];
    const stillRunning = { of: (agentId: string) => running.filter((c) => c.agentId === agentId), onDidChange: new Emitter<string[]>().event };
    const board = new LiveBoard({ calls: tracker, approvals, extras: { stillRunning } }, () => now);
    void hang({ command: "make" }, { agentId: "a1" });
    const callId = tracker.calls()[0]!.id;
    const asked = approvals.enqueue("command", "make", { agentId: "a1", callId });
    expect(board.view("a1").calls[0]).toMatchObject({ toolUseId: null, runningSince: null });
    now = 70_000;
    approvals.decide(asked.id, "allow");
    expect(board.view("a1").calls[0]?.runningSince).toBe(70_000);
    now = 90_000;
    expect(board.view("a1").calls[0]?.runningSince).toBe(70_000);
    running.push({ id: "term-2", callId, agentId: "a1", display: "make", startedAt: 10_000 });
    expect(board.view("a1").stillRunning?.[0]?.startedAt).toBe(70_000);
  });
});
