/**
 * A card's rows from the transcript and the hooks together (hookToolFeed.ts + hookRows.ts): each
 * call shows once, as early as the fastest source knows it, and nothing is lost when one source is
 * silent. Hook inputs are shaped as CLI 2.1.330 sends them (shared reference, Hooks section).
 */
import { describe, expect, it } from "vitest";
import { cardRows, type ToolWait } from "../../../src/core/agent/hookRows";
import { deriveToolCalls } from "../../../src/core/agent/toolCalls";
import { HookToolFeed, MAX_HOOK_TOOLS_PER_AGENT } from "../../../src/core/hooks/hookToolFeed";
import type { TranscriptEvent } from "../../../src/core/transcript/events";
import type { HookEventName } from "../../../src/core/server";
import { ManualClock } from "../../../src/core/util/clock";

const SESSION = "s-1";
const AGENT = "agent-1";

function hook(event: HookEventName, id: string, extra: Record<string, unknown> = {}) {
  return { hook_event_name: event, session_id: SESSION, tool_name: "Bash", tool_input: { command: `run ${id}` }, tool_use_id: id, ...extra };
}

const start = (id: string, at: number, parent: string | null = null, name = "Bash"): TranscriptEvent => ({
  kind: "toolStart",
  id,
  name,
  input: { command: `run ${id}` },
  label: `Running: run ${id}`,
  action: `run ${id}`,
  parent,
  at,
});
const end = (id: string, at: number, outcome: "done" | "interrupted" = "done", parent: string | null = null): TranscriptEvent => ({
  kind: "toolEnd",
  id,
  outcome,
  parent,
  at,
});

function setup() {
  const clock = new ManualClock(1_000_000);
  const feed = new HookToolFeed({ clock });
  const events: TranscriptEvent[] = [];
  const waits = new Map<string, ToolWait>();
  const links = new Map<string, string>();
  const rows = () =>
    cardRows(deriveToolCalls(events), { sessionId: SESSION, hookTools: feed.tools(AGENT), waits, parentOfSubagent: (id) => links.get(id), idle: false }).map(
      (r) => `${r.label} ${r.outcome}${r.parent ? ` under ${r.parent}` : ""}`,
    );
  return { clock, feed, events, waits, links, rows };
}

describe("hook and transcript reconciliation", () => {
  it("hook first, then the record: the row shows at PreToolUse, ends at PostToolUse, and stays one row when the transcript catches up", () => {
    const { clock, feed, events, rows } = setup();
    feed.observe(AGENT, hook("PreToolUse", "t1"));
    expect(rows()).toEqual(["Running: run t1 running"]);
    clock.advance(800);
    feed.observe(AGENT, hook("PostToolUse", "t1", { tool_response: { stdout: "" } }));
    expect(rows()).toEqual(["Running: run t1 done"]);
    events.push(start("t1", clock.now() - 900));
    expect(rows()).toEqual(["Running: run t1 done"]);
    events.push(end("t1", clock.now()));
    expect(rows()).toEqual(["Running: run t1 done"]);
  });

  it("record first, then the hook: the transcript's row is used and the late hook adds nothing", () => {
    const { feed, events, rows } = setup();
    events.push(start("t1", 1));
    expect(rows()).toEqual(["Running: run t1 running"]);
    feed.observe(AGENT, hook("PreToolUse", "t1"));
    expect(rows()).toEqual(["Running: run t1 running"]);
    events.push(end("t1", 2));
    feed.observe(AGENT, hook("PostToolUse", "t1"));
    expect(rows()).toEqual(["Running: run t1 done"]);
  });

  it("a hook that never arrives: the transcript alone shows the call, start to end", () => {
    const { events, rows } = setup();
    events.push(start("t1", 1));
    expect(rows()).toEqual(["Running: run t1 running"]);
    events.push(end("t1", 2));
    expect(rows()).toEqual(["Running: run t1 done"]);
  });

  it("a record that never arrives: the hook's row ends with its PostToolUse, and goes when the turn is over", () => {
    const { clock, feed, rows } = setup();
    feed.observe(AGENT, hook("PreToolUse", "t1"));
    feed.observe(AGENT, hook("PostToolUseFailure", "t1", { error: "exit 1" }));
    expect(rows()).toEqual(["Running: run t1 error"]);
    // The next turn's prompt (stamped after the call) takes the calls announced before it.
    clock.advance(500);
    const nextPromptAt = clock.now();
    clock.advance(100);
    feed.observe(AGENT, hook("PreToolUse", "t2"));
    feed.turnOver(AGENT, SESSION, nextPromptAt);
    expect(rows()).toEqual(["Running: run t2 running"]);
    clock.advance(10);
    feed.turnOver(AGENT, SESSION, clock.now());
    expect(rows()).toEqual([]);
  });

  it("a sub-agent's tools go under its Agent call: by its link when known, else under the one sub-agent running", () => {
    const { feed, events, links, rows } = setup();
    events.push(start("agent-call", 1, null, "Agent"));
    feed.observe(AGENT, hook("PreToolUse", "sub-1", { agent_id: "a0489e", agent_type: "general-purpose" }));
    expect(rows()).toContain("Running: run sub-1 running under agent-call");
    events.push(start("other-agent", 2, null, "Agent"));
    links.set("a0489e", "agent-call");
    feed.observe(AGENT, hook("PreToolUse", "sub-2", { agent_id: "a0489e", agent_type: "general-purpose" }));
    expect(rows()).toContain("Running: run sub-2 running under agent-call");
    // Two sub-agents running and no link: it is not guessed.
    feed.observe(AGENT, hook("PreToolUse", "sub-3", { agent_id: "unlinked", agent_type: "general-purpose" }));
    expect(rows()).toContain("Running: run sub-3 running");
  });

  it("two parallel calls of one tool: each its own row, each ended by its own hook, whatever the order", () => {
    const { feed, events, rows } = setup();
    feed.observe(AGENT, hook("PreToolUse", "t1"));
    feed.observe(AGENT, hook("PreToolUse", "t2"));
    feed.observe(AGENT, hook("PostToolUse", "t2"));
    expect(rows()).toEqual(["Running: run t1 running", "Running: run t2 done"]);
    events.push(start("t1", 1), start("t2", 1), end("t2", 2));
    feed.observe(AGENT, hook("PostToolUse", "t1"));
    expect(rows()).toEqual(["Running: run t1 done", "Running: run t2 done"]);
  });

  it("a PostToolUse heard before its PreToolUse (hooks race) still ends the call; the late start does not reopen it", () => {
    const { feed, rows } = setup();
    feed.observe(AGENT, hook("PostToolUse", "t1"));
    feed.observe(AGENT, hook("PreToolUse", "t1"));
    expect(rows()).toEqual(["Running: run t1 done"]);
  });

  it("hook calls of another session (before /clear) are not shown, and go when the agent moves on", () => {
    const { feed, rows } = setup();
    feed.observe(AGENT, { ...hook("PreToolUse", "old"), session_id: "s-0" });
    expect(rows()).toEqual([]);
    feed.keepOnly(AGENT, SESSION);
    expect(feed.tools(AGENT)).toEqual([]);
  });

  it("a call that waited on a prompt shows its wait apart; one whose prompt closed and that never ran was denied, with no wait (it never ran)", () => {
    const { feed, events, waits, rows } = setup();
    events.push(start("t1", 1000), start("t2", 1000));
    waits.set("t1", { since: 1010, until: 13_000, ran: true });
    waits.set("t2", { since: 1010, until: 5000 });
    events.push(end("t1", 20_000, "interrupted"), end("t2", 5000, "interrupted"));
    const shown = cardRows(deriveToolCalls(events), {
      sessionId: SESSION,
      hookTools: feed.tools(AGENT),
      waits,
      parentOfSubagent: () => undefined,
      idle: false,
    });
    expect(shown.map((r) => [r.id, r.outcome, r.waitedMs])).toEqual([
      ["t1", "interrupted", 12_000],
      ["t2", "denied", undefined],
    ]);
    expect(rows()).toEqual(["Running: run t1 interrupted", "Running: run t2 denied"]);
  });

  it("PermissionDenied ends the call as denied; hostile or malformed inputs are ignored; an agent's calls are bounded", () => {
    const { feed, rows } = setup();
    feed.observe(AGENT, hook("PreToolUse", "t1"));
    feed.observe(AGENT, hook("PermissionDenied", "t1", { reason: "auto mode" }));
    expect(rows()).toEqual(["Running: run t1 denied"]);
    for (const bad of [{ tool_use_id: 42 }, { tool_use_id: "" }, { tool_name: null }, { tool_use_id: "x".repeat(10_000) }]) {
      expect(() => feed.observe(AGENT, { ...hook("PreToolUse", "t9"), ...bad })).not.toThrow();
    }
    expect(rows()).toEqual(["Running: run t1 denied"]);
    for (let i = 0; i < MAX_HOOK_TOOLS_PER_AGENT + 10; i++) feed.observe(AGENT, hook("PreToolUse", `many-${i}`));
    expect(feed.tools(AGENT)).toHaveLength(MAX_HOOK_TOOLS_PER_AGENT);
  });

  it("compaction runs from PreCompact to PostCompact, per session, and ends with its turn if PostCompact never comes", () => {
    const { clock, feed } = setup();
    feed.observe(AGENT, { hook_event_name: "PreCompact", session_id: SESSION, trigger: "manual" });
    expect(feed.isCompacting(AGENT, SESSION)).toBe(true);
    expect(feed.isCompacting(AGENT, "s-other")).toBe(false);
    feed.observe(AGENT, { hook_event_name: "PostCompact", session_id: SESSION, trigger: "manual" });
    expect(feed.isCompacting(AGENT, SESSION)).toBe(false);
    feed.observe(AGENT, { hook_event_name: "PreCompact", session_id: SESSION, trigger: "auto" });
    feed.turnOver(AGENT, SESSION, clock.now());
    expect(feed.isCompacting(AGENT, SESSION)).toBe(false);
  });
});

describe("background sub-agents through the hooks", () => {
  it("an Agent call's PostToolUse at launch (async_launched) does not end it: it runs on, in the background", () => {
    const { feed, events, rows } = setup();
    feed.observe(AGENT, { ...hook("PreToolUse", "agent-call"), tool_name: "Agent", tool_input: { description: "Greeting helper", prompt: "x" } });
    feed.observe(AGENT, { ...hook("PostToolUse", "agent-call"), tool_name: "Agent", tool_response: { status: "async_launched", agentId: "a1" } });
    expect(rows()).toEqual(["Subtask: Greeting helper running"]);
    expect(feed.tools(AGENT)[0]?.background).toBe(true);
    // The transcript's launch record agrees; the call still runs until its notification.
    events.push(
      {
        kind: "toolStart",
        id: "agent-call",
        name: "Agent",
        input: { description: "Greeting helper" },
        label: "Subtask: Greeting helper",
        action: "subtask: Greeting helper",
        parent: null,
        at: 1,
      },
      { kind: "backgroundLaunch", id: "agent-call", at: 2 },
    );
    expect(rows()).toEqual(["Subtask: Greeting helper running"]);
  });
});
