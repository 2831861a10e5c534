/**
 * The interpreter tells with each text reply whether tools still hold the turn (its index, kept as
 * tools come and go), so the state's reducer need not look through every open tool. The index
 * must say what that look would: here both are run over every recorded session and over the
 * background-agent cases that move tools in and out of the foreground.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type AgentState, initialAgentState, reduceAgent } from "../../src/core/agent/agentState";
import { SessionEngine } from "../../src/core/engine/sessionEngine";
import type { TranscriptEvent } from "../../src/core/transcript/events";
import { loadScenario, recordedScenarioNames, sessionFiles } from "../support/recorded";

/** The states with the interpreter's answer, and with the reducer's own look (the answer removed). */
function bothWays(events: readonly TranscriptEvent[]): { indexed: boolean[]; scanned: boolean[] } {
  let indexed: AgentState = initialAgentState;
  let scanned: AgentState = initialAgentState;
  const out = { indexed: [] as boolean[], scanned: [] as boolean[] };
  for (const event of events) {
    indexed = reduceAgent(indexed, event);
    const plain = event.kind === "assistantText" ? { ...event, toolsHoldTurn: undefined } : event;
    scanned = reduceAgent(scanned, plain);
    out.indexed.push(indexed.awaitingIdle);
    out.scanned.push(scanned.awaitingIdle);
  }
  return out;
}

function eventsOf(records: readonly unknown[]): TranscriptEvent[] {
  const engine = new SessionEngine();
  const events = records.flatMap((r) => engine.ingest([r]));
  engine.dispose();
  return events;
}

const use = (id: string, name = "Bash", input: unknown = { command: "true" }) => ({
  type: "assistant",
  message: { id: `m-${id}`, content: [{ type: "tool_use", id, name, input }] },
});
const text = (n: number) => ({ type: "assistant", message: { id: `t${n}`, content: [{ type: "text", text: `reply ${n}` }], stop_reason: "end_turn" } });
const result = (id: string, toolUseResult?: unknown) => ({
  type: "user",
  message: { content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] },
  toolUseResult,
});
const sub = (id: string, parentTool: string) => ({ type: "progress", parentToolUseID: parentTool, data: { type: "agent_progress", message: use(id) } });

describe("whether tools hold the turn, told by the interpreter", () => {
  it.each(recordedScenarioNames())("agrees with a look at the open tools: %s", (name) => {
    const records = sessionFiles(loadScenario(name)).flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as unknown),
    );
    const { indexed, scanned } = bothWays(eventsOf(records));
    expect(indexed).toEqual(scanned);
  });

  it("agrees while a background agent's tools come, go, and outlive their call", () => {
    const records = [
      { type: "user", message: { content: "go" } },
      use("agent", "Task", { prompt: "look", run_in_background: true }),
      text(1), // the call holds the turn until it is launched
      result("agent", { isAsync: true, status: "async_launched", agentId: "x" }),
      text(2), // a background agent alone: the reply may end the turn
      sub("child1", "agent"),
      text(3), // its tool does not hold the turn either
      use("fg"),
      text(4), // a foreground tool does
      result("fg"),
      sub("child2", "agent"),
      { type: "user", message: { content: "<task-notification><tool-use-id>agent</tool-use-id><status>completed</status></task-notification>" } },
      text(5), // its stragglers, their call over, are under no background agent any more
    ];
    const events = eventsOf(records);
    const { indexed, scanned } = bothWays(events);
    expect(indexed).toEqual(scanned);
    const holds = events.filter((e) => e.kind === "assistantText").map((e) => e.kind === "assistantText" && e.toolsHoldTurn);
    expect(holds).toEqual([true, false, false, true, true]);
  });
});
