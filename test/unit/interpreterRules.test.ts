/**
 * Rules the recorded sessions cannot show (older CLI layouts, killed processes, duplicate or
 * stray records). Records here are minimal: only the fields the rule depends on, shaped as in
 * the CLI reference (shared/reference/claude-code-cli.md) and the public fixtures.
 */
import { describe, expect, it } from "vitest";
import { deriveToolCalls } from "../../src/core/agent/toolCalls";
import { SessionEngine, STRAGGLER_GRACE_MS } from "../../src/core/engine/sessionEngine";
import { TranscriptInterpreter } from "../../src/core/transcript/interpreter";
import { ManualClock } from "../../src/core/util/clock";
import type { TranscriptEvent } from "../../src/core/transcript/events";

const use = (id: string, name = "Bash", input: object = { command: "ls" }) => ({
  type: "assistant",
  message: { id: `msg_${id}`, content: [{ type: "tool_use", id, name, input }], stop_reason: "tool_use" },
});
const result = (id: string, extra: object = {}) => ({
  type: "user",
  message: { content: [{ type: "tool_result", tool_use_id: id, content: "ok", ...extra }] },
});
const prompt = (text: string) => ({ type: "user", message: { content: text } });

function run(records: unknown[]): TranscriptEvent[] {
  const interpreter = new TranscriptInterpreter();
  return records.flatMap((r) => interpreter.handle(r));
}

describe("interpreter rules", () => {
  it("a tool whose result never came ends as orphaned when the next prompt starts", () => {
    const calls = deriveToolCalls(run([prompt("one"), use("t1"), prompt("two")]));
    expect(calls.map((c) => c.outcome)).toEqual(["orphaned"]);
  });

  it("an interrupt ends every open tool of the turn as interrupted", () => {
    const events = run([prompt("go"), use("t1"), use("t2"), prompt("[Request interrupted by user]")]);
    expect(deriveToolCalls(events).map((c) => c.outcome)).toEqual(["interrupted", "interrupted"]);
    expect(events.at(-1)).toMatchObject({ kind: "interrupt", forToolUse: false });
  });

  it("a repeated tool_use record does not start the tool twice, nor a repeated result end it twice", () => {
    const events = run([prompt("go"), use("t1"), use("t1"), result("t1"), result("t1")]);
    expect(events.filter((e) => e.kind === "toolStart")).toHaveLength(1);
    expect(events.filter((e) => e.kind === "toolEnd")).toHaveLength(1);
  });

  it("a result for a tool it never saw is ignored", () => {
    expect(run([result("nobody")])).toEqual([]);
  });

  it("tool results inside bookkeeping copies (api-request-blob) are not read", () => {
    const blob = { type: "api-request-blob", messages: [result("t1").message] };
    const events = run([prompt("go"), use("t1"), blob]);
    expect(deriveToolCalls(events).map((c) => c.outcome)).toEqual(["running"]);
  });

  it("an is_error result is an error; a denial by rule, or of an Arcadia approval, is a denial", () => {
    const events = run([
      prompt("go"),
      use("t1"),
      use("t2"),
      result("t1", { is_error: true, content: "command failed" }),
      result("t2", { is_error: true, content: "Permission to use Bash with command rm -rf / has been denied." }),
      use("t3", "mcp__arcadia__execute_command", { command: "curl x | sh" }),
      result("t3", { is_error: true, content: '{"status":"denied","message":"The user denied running `curl x | sh`."}\n\nHint: …' }),
    ]);
    expect(deriveToolCalls(events).map((c) => c.outcome)).toEqual(["error", "denied", "denied"]);
  });

  it("a synthetic API error reply ends the turn as an error", () => {
    const events = run([prompt("go"), { type: "assistant", isApiErrorMessage: true, message: { content: [{ type: "text", text: "API Error: 529" }] } }]);
    expect(events.at(-1)).toMatchObject({ kind: "apiError", final: true });
  });

  it("CLI 2.0.x progress records carry a sub-agent's tools under their Agent call", () => {
    const progress = (inner: object) => ({ type: "progress", parentToolUseID: "agent1", data: { type: "agent_progress", message: inner } });
    const events = run([
      prompt("go"),
      use("agent1", "Task", { description: "Look", prompt: "look around" }),
      progress(use("sub1", "Read", { file_path: "/a/b.ts" })),
      progress(result("sub1")),
    ]);
    const calls = deriveToolCalls(events);
    expect(calls.map((c) => [c.label, c.parent, c.outcome])).toEqual([
      ["Subtask: Look", null, "running"],
      ["Reading b.ts", "agent1", "done"],
    ]);
  });

  it("a compaction boundary and a slash command are events of their own", () => {
    const events = run([
      { type: "system", subtype: "compact_boundary", compactMetadata: { trigger: "auto" } },
      prompt("<command-name>/model</command-name>\n<command-args>opus</command-args>"),
    ]);
    expect(events).toMatchObject([
      { kind: "compaction", trigger: "auto" },
      { kind: "slashCommand", name: "/model", args: "opus" },
    ]);
  });

  it("a turn's end takes its tools out of flight and leaves a background agent in it, whether or not it closes them all", () => {
    const bg = { ...result("bg"), toolUseResult: { status: "async_launched" } };
    const end = { type: "system", subtype: "turn_duration", durationMs: 5 };
    for (const withAgent of [true, false]) {
      const interpreter = new TranscriptInterpreter();
      const records = withAgent ? [prompt("go"), use("bg", "Agent", { prompt: "look" }), bg, use("t1"), use("t2"), end] : [prompt("go"), use("t1"), use("t2"), end];
      for (const r of records) interpreter.handle(r);
      expect([interpreter.isOpen("t1"), interpreter.isOpen("t2"), interpreter.isOpen("bg")], `agent: ${withAgent}`).toEqual([false, false, withAgent]);
      // A closed tool's late result revises its end; a repeat of its tool_use starts nothing; a new tool starts.
      const after = [result("t1"), use("t2"), use("t3")].flatMap((r) => interpreter.handle(r));
      expect(after.map((e) => [e.kind, "id" in e ? e.id : undefined])).toEqual([
        ["toolEnd", "t1"],
        ["toolStart", "t3"],
      ]);
      expect(after[0]).toMatchObject({ outcome: "done", revised: true });
      expect(interpreter.isOpen("t3")).toBe(true);
    }
  });

  it("a local command (/clear) with tools open ends them: never 'waiting' with tools still 'running'", () => {
    // The prompt was free for the command, so the turn's tools had lost their results (as when
    // the next prompt starts); a background agent runs on. Both forms of the command's end count.
    const bg = {
      type: "user",
      message: { content: [{ type: "tool_result", tool_use_id: "bg", content: "launched" }] },
      toolUseResult: { status: "async_launched" },
    };
    for (const done of [{ type: "system", subtype: "local_command" }, prompt("<local-command-stdout></local-command-stdout>")]) {
      const engine = new SessionEngine();
      const events = [
        prompt("go"),
        use("bg", "Agent", { prompt: "look" }),
        bg,
        use("t1"),
        use("t2"),
        prompt("<command-name>/clear</command-name>"),
        done,
      ].flatMap((r) => engine.ingest([r]));
      expect(engine.state.status).toBe("waiting");
      expect(engine.state.activeTools.list().map((t) => t.id)).toEqual(["bg"]);
      expect(deriveToolCalls(events).map((c) => [c.id, c.outcome])).toEqual([
        ["bg", "running"],
        ["t1", "orphaned"],
        ["t2", "orphaned"],
      ]);
      engine.dispose();
    }
    // Its end alone (no command record before it) ends them too.
    const engine = new SessionEngine();
    for (const r of [prompt("go"), use("t1"), { type: "system", subtype: "local_command" }]) engine.ingest([r]);
    expect(engine.state).toMatchObject({ status: "waiting" });
    expect(engine.state.activeTools.size).toBe(0);
    engine.dispose();
  });

  it("records that are not objects, or have odd shapes, are skipped without throwing", () => {
    const odd = [null, 42, "text", [], { type: "assistant" }, { type: "user", message: { content: [null, 5] } }, { type: "system" }];
    expect(() => run(odd)).not.toThrow();
  });

  it("a sub-agent's tool read before its parent's Agent record is not given up on as a straggler", () => {
    const clock = new ManualClock();
    const engine = new SessionEngine({ clock });
    const events: TranscriptEvent[] = [];
    engine.onDidChange(({ events: batch }) => events.push(...batch));
    engine.interpreter.linkSubagent("sub1", "agent1");
    const sub = { kind: "subagent", agentId: "sub1", parentToolId: "agent1" } as const;
    engine.ingest([prompt("go")]);
    engine.ingest([{ ...use("s1", "Read", { file_path: "/a/b.ts" }), isSidechain: true }], sub);
    clock.advance(5000);
    engine.ingest([use("agent1", "Agent", { description: "Look", prompt: "look" })]);
    engine.ingest([{ ...result("s1"), isSidechain: true }], sub);
    engine.ingest([result("agent1")]);
    expect(deriveToolCalls(events).map((c) => `${c.name} ${c.outcome}`)).toEqual(["Read done", "Agent done"]);
  });

  it("a finished sub-agent's late tool gets its own grace, then is orphaned", () => {
    const clock = new ManualClock();
    const engine = new SessionEngine({ clock });
    const events: TranscriptEvent[] = [];
    engine.onDidChange(({ events: batch }) => events.push(...batch));
    const sub = { kind: "subagent", agentId: "sub1", parentToolId: "agent1" } as const;
    engine.interpreter.linkSubagent("sub1", "agent1");
    engine.ingest([prompt("go"), use("agent1", "Agent", { description: "Look", prompt: "look" })]);
    engine.ingest([{ ...use("s1", "Read", { file_path: "/a/b.ts" }), isSidechain: true }], sub);
    engine.ingest([result("agent1")]);
    clock.advance(STRAGGLER_GRACE_MS - 1);
    expect(deriveToolCalls(events).find((c) => c.id === "s1")?.outcome).toBe("running");
    clock.advance(1);
    expect(deriveToolCalls(events).find((c) => c.id === "s1")?.outcome).toBe("orphaned");
  });

  it("a straggler's result read after its grace revises it from orphaned to its recorded outcome", () => {
    const clock = new ManualClock();
    const engine = new SessionEngine({ clock });
    const events: TranscriptEvent[] = [];
    engine.onDidChange(({ events: batch }) => events.push(...batch));
    const sub = { kind: "subagent", agentId: "sub1", parentToolId: "agent1" } as const;
    engine.interpreter.linkSubagent("sub1", "agent1");
    engine.ingest([prompt("go"), use("agent1", "Agent", { description: "Look", prompt: "look" })]);
    engine.ingest([{ ...use("s1"), isSidechain: true }], sub);
    engine.ingest([result("agent1")]);
    clock.advance(STRAGGLER_GRACE_MS);
    expect(deriveToolCalls(events).find((c) => c.id === "s1")?.outcome).toBe("orphaned");
    engine.ingest([{ ...result("s1", { is_error: true }), isSidechain: true }], sub);
    expect(deriveToolCalls(events).find((c) => c.id === "s1")?.outcome).toBe("error");
    expect(engine.state.activeTools.list()).toEqual([]);
  });

  it("a result repeated after the tool ended does not change its outcome", () => {
    const events = run([prompt("go"), use("t1"), result("t1"), result("t1", { is_error: true })]);
    expect(deriveToolCalls(events).map((c) => c.outcome)).toEqual(["done"]);
    expect(events.filter((e) => e.kind === "toolEnd")).toHaveLength(1);
  });
});
