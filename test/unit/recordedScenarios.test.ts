/**
 * The engine against sessions the real CLI recorded (test/fixtures/recorded, re-recorded with
 * `npm run record-fixtures`). Each scenario is cut at the moments the recorder paused, and the
 * state there is what a person watching the card at that moment should have seen.
 */
import { describe, expect, it } from "vitest";
import type { AgentState } from "../../src/core/agent/agentState";
import type { ToolCall } from "../../src/core/agent/toolCalls";
import { replaySessions } from "../../src/core/engine/replay";
import type { TranscriptEvent } from "../../src/core/transcript/events";
import { cutAtCheckpoint, loadScenario, sessionFiles } from "../support/recorded";

interface Seen {
  state: AgentState;
  calls: ToolCall[];
  events: TranscriptEvent[];
}

async function at(scenario: string, checkpoint: string): Promise<Seen> {
  const events: TranscriptEvent[] = [];
  const files = cutAtCheckpoint(loadScenario(scenario), checkpoint);
  const { final, calls } = await replaySessions(files, { finishTimers: false, onStep: (s) => events.push(...s.events) });
  return { state: final, calls, events };
}

async function finished(scenario: string): Promise<Seen> {
  const events: TranscriptEvent[] = [];
  const { final, calls } = await replaySessions(sessionFiles(loadScenario(scenario)), { onStep: (s) => events.push(...s.events) });
  return { state: final, calls, events };
}

const summary = (calls: ToolCall[]) => calls.map((c) => `${c.label} → ${c.outcome}`);

describe("recorded from the real CLI", () => {
  it("several-tools: three tools of one reply all end done, then the turn ends", async () => {
    const { state, calls } = await at("several-tools", "after-turn");
    expect(summary(calls)).toEqual(["Reading notes.txt → done", "Running: echo hi → done", "Writing created.txt → done"]);
    expect(state).toMatchObject({ status: "waiting", lastTurn: "completed", activeTools: [] });
  });

  it("text-only: a reply without tools ends the turn (turn_duration)", async () => {
    const { state, calls } = await at("text-only", "after-turn");
    expect(calls).toEqual([]);
    expect(state).toMatchObject({ status: "waiting", lastTurn: "completed" });
  });

  it("escape-slow-tool: running, then Escape ends the tool and the turn as interrupted", async () => {
    const running = await at("escape-slow-tool", "tool-running");
    expect(running.state.status).toBe("active");
    expect(running.state.activeTools.map((t) => t.label)).toEqual([expect.stringMatching(/^Running: python3 -c "import time; time.sleep\(30\)/)]);

    const after = await at("escape-slow-tool", "after-escape");
    expect(after.calls.map((c) => c.outcome)).toEqual(["interrupted"]);
    expect(after.state).toMatchObject({ status: "waiting", lastTurn: "interrupted", activeTools: [] });
  });

  it("permission-deny-then-approve: the waiting call shows as running, the denied one as interrupted, the approved one done", async () => {
    const prompt = await at("permission-deny-then-approve", "prompt-shown");
    expect(prompt.state.status).toBe("active");
    expect(prompt.state.activeTools.map((t) => t.label)).toEqual(["Running: touch marker-one.txt"]);

    const denied = await at("permission-deny-then-approve", "after-deny");
    expect(summary(denied.calls)).toEqual(["Running: touch marker-one.txt → interrupted"]);
    expect(denied.state).toMatchObject({ status: "waiting", lastTurn: "interrupted", activeTools: [] });

    const approved = await at("permission-deny-then-approve", "after-approve");
    expect(summary(approved.calls)).toEqual(["Running: touch marker-one.txt → interrupted", "Running: touch marker-two.txt → done"]);
    expect(approved.state).toMatchObject({ status: "waiting", lastTurn: "completed" });
  });

  it("clear: the agent moves to the new session, which starts idle and then works on its own", async () => {
    const before = await at("clear", "before-clear");
    expect(before.state).toMatchObject({ status: "waiting", lastTurn: "completed" });

    const cleared = await at("clear", "after-clear");
    expect(cleared.events.some((e) => e.kind === "slashCommand" && e.name === "/clear")).toBe(true);
    expect(cleared.state).toMatchObject({ status: "waiting", lastTurn: "none", activeTools: [] });

    const second = await at("clear", "after-second-turn");
    expect(summary(second.calls)).toEqual(["Running: echo one → done", "Running: echo two → done"]);
    expect(second.state).toMatchObject({ status: "waiting", lastTurn: "completed" });
  });

  it("subagent-foreground: the sub-agent's tool runs under its Subtask row, then both finish", async () => {
    const running = await at("subagent-foreground", "subagent-running");
    const agent = running.calls.find((c) => c.name === "Agent");
    expect(agent?.outcome).toBe("running");
    const nested = running.calls.filter((c) => c.parent === agent?.id);
    expect(nested.map((c) => c.name)).toEqual(["Bash"]);
    expect(running.state.status).toBe("active");
    expect(running.state.activeTools.map((t) => t.id).sort()).toEqual([agent?.id, nested[0]?.id].sort());

    const done = await at("subagent-foreground", "after-turn");
    expect(done.calls.every((c) => c.outcome === "done")).toBe(true);
    expect(done.state).toMatchObject({ status: "waiting", lastTurn: "completed", activeTools: [] });
  });

  it("subagent-background: the parent turn ends while the sub-agent runs on, until it reports back", async () => {
    const mid = await at("subagent-background", "parent-turn-ended-subagent-running");
    const agent = mid.calls.find((c) => c.name === "Agent");
    expect(agent).toMatchObject({ outcome: "running", background: true });
    expect(mid.state).toMatchObject({ status: "waiting", lastTurn: "completed" });
    const running = mid.state.activeTools;
    expect(running.find((t) => t.id === agent?.id)?.background).toBe(true);
    expect(running.some((t) => t.parent === agent?.id && t.name === "Bash")).toBe(true);

    const back = await at("subagent-background", "after-notification");
    expect(back.events.some((e) => e.kind === "prompt" && e.source === "task-notification")).toBe(true);
    expect(back.calls.find((c) => c.name === "Agent")?.outcome).toBe("done");
    expect(back.state).toMatchObject({ status: "waiting", lastTurn: "completed", activeTools: [] });
  });

  it("mcp-two-calls: two MCP calls in one reply, labelled by tool and server", async () => {
    const { calls, state } = await at("mcp-two-calls", "after-turn");
    expect(calls.map((c) => c.name)).toEqual(["mcp__echo__echo", "mcp__echo__echo"]);
    expect(summary(calls)).toEqual(["echo (echo) → done", "echo (echo) → done"]);
    expect(state.lastTurn).toBe("completed");
  });

  it("api-errors-print: retries are reported with their status, then the run succeeds", async () => {
    const { events, state, calls } = await finished("api-errors-print");
    const errors = events.filter((e) => e.kind === "apiError");
    expect(errors.map((e) => e.kind === "apiError" && e.status)).toEqual([529, 529, 429]);
    expect(errors.every((e) => e.kind === "apiError" && !e.final && e.retryAttempt !== undefined)).toBe(true);
    expect(summary(calls)).toEqual(["Running: echo recovered → done"]);
    expect(state).toMatchObject({ status: "waiting", lastTurn: "completed" });
  });

  it("print-text: no turn_duration in print mode, so the reply ends the turn only after the idle delay", async () => {
    const live = await at("print-text", "done");
    expect(live.events.some((e) => e.kind === "turnEnd")).toBe(false);
    expect(live.state).toMatchObject({ status: "active", awaitingIdle: true });
    const later = await finished("print-text");
    expect(later.state).toMatchObject({ status: "waiting", lastTurn: "completed" });
  });

  it("print-tool: a tool in print mode finishes, then the final reply ends the run", async () => {
    const { calls, state } = await finished("print-tool");
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.outcome === "done")).toBe(true);
    expect(state).toMatchObject({ status: "waiting", lastTurn: "completed" });
  });
});
