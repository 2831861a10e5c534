/**
 * What a person watching the card should see at each checkpoint of each scenario. One table,
 * asserted twice: live, while the real CLI writes the transcript (test/integration), and against
 * the recorded transcripts cut at the same moments (test/unit).
 *
 * `final` is the state once every timer has run (the session is over and nothing more comes).
 */
import { expect } from "vitest";
import type { AgentState } from "../../src/core/agent/agentState";
import type { ToolCall } from "../../src/core/agent/toolCalls";
import type { TranscriptEvent } from "../../src/core/transcript/events";

export interface Seen {
  state: AgentState;
  calls: ToolCall[];
  events: TranscriptEvent[];
}

export type Expectation = (seen: Seen) => void;

const summary = (calls: ToolCall[]) => calls.map((c) => `${c.label} → ${c.outcome}`);
const idle = (state: AgentState, lastTurn: AgentState["lastTurn"]) =>
  expect({ status: state.status, lastTurn: state.lastTurn, active: state.activeTools.list().map((t) => t.label) }).toEqual({
    status: "waiting",
    lastTurn,
    active: [],
  });

export const expectations: Record<string, Record<string, Expectation>> = {
  "several-tools": {
    "after-turn": ({ state, calls }) => {
      expect(summary(calls)).toEqual(["Reading notes.txt → done", "Running: echo hi → done", "Writing created.txt → done"]);
      idle(state, "completed");
    },
  },
  "text-only": {
    "after-turn": ({ state, calls }) => {
      expect(calls).toEqual([]);
      idle(state, "completed");
    },
  },
  "escape-slow-tool": {
    "tool-running": ({ state }) => {
      expect(state.status).toBe("active");
      expect(state.activeTools.list().map((t) => t.label)).toEqual([expect.stringMatching(/^Running: python3 -c "import time; time.sleep\(30\)/)]);
    },
    "after-escape": ({ state, calls }) => {
      expect(calls.map((c) => c.outcome)).toEqual(["interrupted"]);
      idle(state, "interrupted");
    },
  },
  "permission-deny-then-approve": {
    // The transcript alone cannot tell a permission prompt from a slow tool: the call is running.
    "prompt-shown": ({ state }) => {
      expect(state.status).toBe("active");
      expect(state.activeTools.list().map((t) => t.label)).toEqual(["Running: touch marker-one.txt"]);
    },
    // "No" at the prompt: the record says it was refused before it ran (toolDenialBeforeRun), so
    // it reads denied from the transcript alone — the same live, after a reload and in replay.
    "after-deny": ({ state, calls }) => {
      expect(summary(calls)).toEqual(["Running: touch marker-one.txt → denied"]);
      idle(state, "interrupted");
    },
    "after-approve": ({ state, calls }) => {
      expect(summary(calls)).toEqual(["Running: touch marker-one.txt → denied", "Running: touch marker-two.txt → done"]);
      idle(state, "completed");
    },
  },
  clear: {
    "before-clear": ({ state, calls }) => {
      expect(summary(calls)).toEqual(["Running: echo one → done"]);
      idle(state, "completed");
    },
    "after-clear": ({ state, events }) => {
      expect(events.some((e) => e.kind === "slashCommand" && e.name === "/clear")).toBe(true);
      idle(state, "none");
    },
    "after-second-turn": ({ state, calls }) => {
      expect(summary(calls)).toEqual(["Running: echo one → done", "Running: echo two → done"]);
      idle(state, "completed");
    },
  },
  compact: {
    // The compact summary is a user record but not a prompt: no new turn, nothing running.
    "after-compact": ({ state, events }) => {
      expect(events.filter((e) => e.kind === "prompt")).toHaveLength(1);
      expect(events.some((e) => e.kind === "compaction" && e.trigger === "manual")).toBe(true);
      expect(events.some((e) => e.kind === "slashCommand" && e.name === "/compact")).toBe(true);
      idle(state, "completed");
    },
  },
  "subagent-foreground": {
    "subagent-running": ({ state, calls }) => {
      const agent = calls.find((c) => c.name === "Agent");
      expect(agent?.outcome).toBe("running");
      const nested = calls.filter((c) => c.parent === agent?.id);
      expect(nested.map((c) => `${c.name} ${c.outcome}`)).toEqual(["Bash running"]);
      expect(state.status).toBe("active");
      expect(
        state.activeTools
          .list()
          .map((t) => t.id)
          .sort(),
      ).toEqual([agent?.id, nested[0]?.id].sort());
    },
    "after-turn": ({ state, calls }) => {
      expect(calls.map((c) => `${c.name} ${c.outcome} ${c.parent ? "nested" : "top"}`).sort()).toEqual(["Agent done top", "Bash done nested"]);
      idle(state, "completed");
    },
  },
  "subagent-background": {
    "parent-turn-ended-subagent-running": ({ state, calls }) => {
      const agent = calls.find((c) => c.name === "Agent");
      expect(agent).toMatchObject({ outcome: "running", background: true });
      expect(state).toMatchObject({ status: "waiting", lastTurn: "completed" });
      expect(state.activeTools.list().find((t) => t.id === agent?.id)?.background).toBe(true);
      expect(state.activeTools.list().some((t) => t.parent === agent?.id && t.name === "Bash")).toBe(true);
    },
    "after-notification": ({ state, calls, events }) => {
      expect(events.some((e) => e.kind === "prompt" && e.source === "task-notification")).toBe(true);
      // Sorted: live, the sub-agent's first record can land before its parent's Agent record.
      expect(calls.map((c) => `${c.name} ${c.outcome}`).sort()).toEqual(["Agent done", "Bash done"]);
      idle(state, "completed");
    },
  },
  "away-summary": {
    "prompt-shown": ({ state }) => {
      expect(state.status).toBe("active");
      expect(state.activeTools.list().map((t) => t.label)).toEqual(["Running: touch denied.txt"]);
    },
    "after-deny": ({ state, calls }) => {
      expect(summary(calls)).toEqual(["Running: touch denied.txt → denied"]);
      idle(state, "interrupted");
    },
    "slow-tool-running": ({ state, calls }) => {
      expect(state.status).toBe("active");
      expect(calls.map((c) => c.outcome)).toEqual(["denied", "running"]);
    },
    "after-escape": ({ state, calls }) => {
      expect(calls.map((c) => c.outcome)).toEqual(["denied", "interrupted"]);
      idle(state, "interrupted");
    },
    "background-running": ({ state, calls }) => {
      const agent = calls.find((c) => c.name === "Agent");
      expect(agent).toMatchObject({ label: "Subtask: Greeting helper", outcome: "running", background: true });
      expect(calls.some((c) => c.parent === agent?.id && c.outcome === "running")).toBe(true);
      expect(state).toMatchObject({ status: "waiting", lastTurn: "completed" });
    },
    "after-notification": ({ state, calls }) => {
      expect(calls.map((c) => `${c.name} ${c.outcome}`).sort()).toEqual(["Agent done", "Bash denied", "Bash done", "Bash interrupted"]);
      idle(state, "completed");
    },
    // The recap request's two tool calls (Read README.md, Bash ls -la) are nowhere: the CLI wrote
    // its away_summary record and none of the side query's calls.
    "after-away-summary": ({ state, calls, events }) => {
      expect(calls).toHaveLength(4);
      expect(calls.some((c) => c.label === "Reading README.md" || c.label === "Running: ls -la")).toBe(false);
      expect(events.filter((e) => e.kind === "toolStart")).toHaveLength(4);
      idle(state, "completed");
    },
  },
  "subagent-background-later-turn": {
    "second-turn-ended-subagent-running": ({ state, calls, events }) => {
      const agent = calls.find((c) => c.name === "Agent");
      expect(agent).toMatchObject({ outcome: "running", background: true });
      expect(events.filter((e) => e.kind === "turnEnd")).toHaveLength(2);
      expect(state).toMatchObject({ status: "waiting", lastTurn: "completed" });
      expect(state.activeTools.list().find((t) => t.id === agent?.id)?.background).toBe(true);
    },
    "after-notification": ({ state, calls }) => {
      expect(calls.map((c) => `${c.name} ${c.outcome}`).sort()).toEqual(["Agent done", "Bash done"]);
      idle(state, "completed");
    },
  },
  "mcp-two-calls": {
    "after-turn": ({ state, calls }) => {
      expect(calls.map((c) => c.name)).toEqual(["mcp__echo__echo", "mcp__echo__echo"]);
      expect(summary(calls)).toEqual(["echo (echo) → done", "echo (echo) → done"]);
      idle(state, "completed");
    },
  },
  "api-errors-print": {
    done: ({ events, calls }) => {
      const errors = events.filter((e) => e.kind === "apiError");
      expect(errors.map((e) => e.kind === "apiError" && e.status)).toEqual([529, 529, 429]);
      expect(errors.every((e) => e.kind === "apiError" && !e.final && e.retryAttempt !== undefined && e.maxRetries !== undefined)).toBe(true);
      expect(summary(calls)).toEqual(["Running: echo recovered → done"]);
    },
    final: ({ state }) => idle(state, "completed"),
  },
  "rename-resume": {
    renamed: ({ state, calls }) => {
      idle(state, "completed");
      expect(summary(calls)).toEqual(["Running: echo planned → done"]);
    },
    // After --resume the same file goes on: the second turn's call, and the card idle again.
    "resumed-turn": ({ state, calls }) => {
      idle(state, "completed");
      expect(summary(calls)).toEqual(["Running: echo planned → done", "Running: echo planned → done"]);
    },
    final: ({ state }) => idle(state, "completed"),
  },
  "usage-limit-print": {
    // The refusal ends the turn as an error (the card says which limit: sessionCards / limitNotice).
    refused: ({ events }) => {
      expect(events.some((e) => e.kind === "apiError" && e.final)).toBe(true);
    },
    final: ({ state }) => idle(state, "error"),
  },
  "api-usage-limit-print": {
    // The API key's spend limit (a 400, not a 429) ends the turn as an error too.
    refused: ({ events }) => {
      expect(events.some((e) => e.kind === "apiError" && e.final)).toBe(true);
    },
    final: ({ state }) => idle(state, "error"),
  },
  "print-text": {
    // Print mode writes no turn_duration: only the idle timer can end the turn.
    done: ({ state, events }) => {
      expect(events.some((e) => e.kind === "turnEnd")).toBe(false);
      expect(state).toMatchObject({ status: "active", awaitingIdle: true });
    },
    final: ({ state }) => idle(state, "completed"),
  },
  "print-tool": {
    done: ({ calls }) => {
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.every((c) => c.outcome === "done")).toBe(true);
    },
    final: ({ state }) => idle(state, "completed"),
  },
};
