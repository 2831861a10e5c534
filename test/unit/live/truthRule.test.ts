/**
 * One rule for truth (core/agent/shownRows.ts): a row is running only while the CLI's own sources
 * say the tool runs. The CLI's side queries never make a row; an idle agent has no running row but
 * a background sub-agent's; a call whose prompt is up waits for you; and a row says what happened
 * in one set of words ("Denied: touch x"). Hook inputs are shaped as CLI 2.1.330 sends them (the
 * away summary's as recorded in test/fixtures/recorded/away-summary).
 */
import { describe, expect, it } from "vitest";
import { initialAgentState, reduceAgent } from "../../../src/core/agent/agentState";
import type { RowSources, ToolWait } from "../../../src/core/agent/hookRows";
import { shownRows } from "../../../src/core/agent/shownRows";
import { HookToolFeed } from "../../../src/core/hooks/hookToolFeed";
import type { TranscriptEvent } from "../../../src/core/transcript/events";
import type { HookEventName } from "../../../src/core/server";
import { ManualClock } from "../../../src/core/util/clock";

const SESSION = "s-1";
const AGENT = "agent-1";

function hook(event: HookEventName, id: string, extra: Record<string, unknown> = {}) {
  return { hook_event_name: event, session_id: SESSION, tool_name: "Bash", tool_input: { command: `touch ${id}.txt` }, tool_use_id: id, ...extra };
}

const start = (id: string, at: number, extra: Partial<Extract<TranscriptEvent, { kind: "toolStart" }>> = {}): TranscriptEvent => ({
  kind: "toolStart",
  id,
  name: "Bash",
  input: { command: `touch ${id}.txt` },
  label: `Running: touch ${id}.txt`,
  action: `touch ${id}.txt`,
  parent: null,
  at,
  ...extra,
});
const end = (id: string, at: number, outcome: "done" | "interrupted" | "denied" = "done", parent: string | null = null): TranscriptEvent => ({
  kind: "toolEnd",
  id,
  outcome,
  parent,
  at,
});

function card() {
  const clock = new ManualClock(1_000_000);
  const feed = new HookToolFeed({ clock });
  const events: TranscriptEvent[] = [];
  const waits = new Map<string, ToolWait>();
  /** What the status file says: busy, or idle since a moment. */
  let status: { idle: false } | { idle: true; since: number } = { idle: false };
  const state = () => events.reduce(reduceAgent, initialAgentState);
  const sources = (): RowSources => ({
    sessionId: SESSION,
    hookTools: feed.tools(AGENT),
    waits,
    parentOfSubagent: () => undefined,
    idle: status.idle,
    idleSince: status.idle ? status.since : undefined,
  });
  /** Each row as a person reads it: its words and whether it still runs. */
  const rows = () => shownRows(events, state(), sources()).map((r) => `${r.label} · ${r.outcome}`);
  return {
    clock,
    feed,
    events,
    waits,
    rows,
    restored: () => shownRows(events, state(), undefined).map((r) => `${r.label} · ${r.outcome}`),
    setIdle: (since: number) => (status = { idle: true, since }),
    setBusy: () => (status = { idle: false }),
  };
}

describe("the CLI's side queries never make a row", () => {
  it("the away summary's calls (agent_id, no agent_type, while the status file says idle) show nothing, then or later", () => {
    const c = card();
    c.events.push({ kind: "prompt", text: "First prompt", source: "user", at: c.clock.now() }, start("t1", c.clock.now()));
    c.feed.observe(AGENT, hook("PreToolUse", "t1"));
    c.feed.observe(AGENT, hook("PostToolUse", "t1"));
    c.events.push(end("t1", c.clock.now()), { kind: "turnEnd", at: c.clock.now() });
    c.setIdle(c.clock.now());
    c.clock.advance(180_000);
    // Recorded (CLI 2.1.330): the recap request's tool calls fire PreToolUse and nothing else.
    c.feed.observe(AGENT, {
      ...hook("PreToolUse", "toolu_recap_read"),
      tool_name: "Read",
      tool_input: { file_path: "/home/user/project/README.md" },
      agent_id: "a144ad86abc316cee",
    });
    c.feed.observe(AGENT, { ...hook("PreToolUse", "toolu_recap_ls"), tool_input: { command: "ls -la" }, agent_id: "a144ad86abc316cee" });
    expect(c.rows()).toEqual(["touch t1.txt · done"]);
    c.clock.advance(231_000);
    expect(c.rows()).toEqual(["touch t1.txt · done"]);
    expect(c.feed.tools(AGENT).map((t) => t.id)).toEqual(["t1"]);
  });

  it("a sub-agent's call when no sub-agent runs, or first heard while idle outside a background sub-agent, gets no row", () => {
    const c = card();
    c.feed.observe(AGENT, hook("PreToolUse", "orphan-sub", { agent_id: "a1", agent_type: "general-purpose" }));
    expect(c.rows()).toEqual([]);
    c.events.push(start("agent-call", c.clock.now(), { name: "Agent", label: "Subtask: Helper", action: "subtask: Helper", input: { description: "Helper" } }));
    c.setIdle(c.clock.now());
    c.clock.advance(10);
    c.feed.observe(AGENT, hook("PreToolUse", "late-sub", { agent_id: "a1", agent_type: "general-purpose" }));
    expect(c.rows().some((r) => r.includes("late-sub"))).toBe(false);
  });
});

describe("an idle agent has no running row", () => {
  it("a row the transcript left open ends when the status file says idle: it reads 'No result', never 'Running'", () => {
    const c = card();
    c.events.push({ kind: "prompt", text: "go", source: "user", at: 1 }, start("t1", 2));
    expect(c.rows()).toEqual(["Running: touch t1.txt · running"]);
    c.setIdle(c.clock.now());
    expect(c.rows()).toEqual(["No result: touch t1.txt · orphaned"]);
  });

  it("a call the hooks announced before the agent went idle, never ended by them or recorded, is not left running", () => {
    const c = card();
    c.feed.observe(AGENT, hook("PreToolUse", "t1"));
    expect(c.rows()).toEqual(["Running: touch t1.txt · running"]);
    c.clock.advance(5);
    c.setIdle(c.clock.now());
    expect(c.rows()).toEqual(["No result: touch t1.txt · orphaned"]);
  });

  it("a background sub-agent runs on while its parent is idle, and so do its calls; they say background", () => {
    const c = card();
    c.events.push(
      { kind: "prompt", text: "delegate", source: "user", at: 1 },
      start("agent-call", 2, { name: "Agent", label: "Subtask: Helper", action: "subtask: Helper", input: { description: "Helper" } }),
      { kind: "backgroundLaunch", id: "agent-call", at: 3 },
      { kind: "turnEnd", at: 4 },
      start("sub-1", 5, { parent: "agent-call" }),
    );
    c.setIdle(4);
    const rows = shownRows(c.events, c.events.reduce(reduceAgent, initialAgentState), undefined);
    expect(rows.map((r) => [r.label, r.outcome, r.background])).toEqual([
      ["Subtask: Helper", "running", true],
      ["Running: touch sub-1.txt", "running", false],
    ]);
    expect(c.rows()).toEqual(["Subtask: Helper · running", "Running: touch sub-1.txt · running"]);
  });

  it("a stale idle read does not hold back a new turn's row: it shows at its PreToolUse and runs once the status file says busy", () => {
    const c = card();
    c.setIdle(c.clock.now());
    c.clock.advance(1000);
    c.feed.observe(AGENT, hook("PreToolUse", "t2"));
    expect(c.rows()).toHaveLength(1);
    c.setBusy();
    expect(c.rows()).toEqual(["Running: touch t2.txt · running"]);
  });
});

describe("a row says what happened, once, in the same words live and restored", () => {
  it("while its permission prompt is up it waits for you (no clock), then runs from the moment it was allowed", () => {
    const c = card();
    c.events.push({ kind: "prompt", text: "go", source: "user", at: 1 }, start("t1", 1000));
    c.waits.set("t1", { since: 1000 });
    expect(c.rows()).toEqual(["Waiting for you: touch t1.txt · waiting"]);
    c.waits.set("t1", { since: 1000, until: 30_000, ran: true });
    expect(c.rows()).toEqual(["Running: touch t1.txt · running"]);
  });

  it("the status file says a permission prompt is up that the card does not hold (after a reload): the one call running is the one asking", () => {
    const c = card();
    c.events.push({ kind: "prompt", text: "go", source: "user", at: 1 }, start("t1", 2));
    const asking = (events: TranscriptEvent[]) =>
      shownRows(events, events.reduce(reduceAgent, initialAgentState), {
        sessionId: SESSION,
        hookTools: [],
        waits: new Map(),
        parentOfSubagent: () => undefined,
        idle: false,
        waitingOnPermission: true,
      }).map((r) => `${r.label} · ${r.outcome}`);
    expect(asking(c.events)).toEqual(["Waiting for you: touch t1.txt · waiting"]);
    // Two calls running: which one asks is not guessed.
    expect(asking([...c.events, start("t2", 3)])).toEqual(["Running: touch t1.txt · running", "Running: touch t2.txt · running"]);
  });

  it("a 'No' reads 'Denied: touch …' (never 'Denied: Running: …'), live and after a reload alike", () => {
    const c = card();
    c.events.push({ kind: "prompt", text: "go", source: "user", at: 1 }, start("t1", 2), end("t1", 3, "denied"), {
      kind: "interrupt",
      forToolUse: true,
      at: 3,
    });
    c.waits.set("t1", { since: 2, until: 3 });
    expect(c.rows()).toEqual(["Denied: touch t1.txt · denied"]);
    expect(c.restored()).toEqual(c.rows());
  });

  it("Escape during a tool reads 'Interrupted: …'", () => {
    const c = card();
    c.events.push({ kind: "prompt", text: "go", source: "user", at: 1 }, start("t1", 2), end("t1", 9, "interrupted"), {
      kind: "interrupt",
      forToolUse: true,
      at: 9,
    });
    expect(c.rows()).toEqual(["Interrupted: touch t1.txt · interrupted"]);
    expect(c.restored()).toEqual(c.rows());
  });
});
