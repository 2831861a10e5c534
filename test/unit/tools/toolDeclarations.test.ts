/**
 * An Arcadia MCP tool is declared once (src/core/toolDeclarations): what the agent is told, how
 * its calls read on a card, what Complete does and which file it writes all come from that one
 * declaration, through the real paths that use them: the server's registration, the transcript's
 * rows, the tracker's Complete button and the collision guard. A declaration changed is every
 * one of them changed.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { deriveToolCalls } from "../../../src/core/agent/toolCalls";
import { rowLabel } from "../../../src/core/labels/toolLabels";
import { GENERIC_COMPLETE_HINT, ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import type { ToolSpec } from "../../../src/core/server";
import { registerArcadiaTools } from "../../../src/core/tools";
import { ARCADIA_TOOL_PREFIX, ARCADIA_TOOLS, type DeclaredTool, editTarget, isEditTool } from "../../../src/core/toolDeclarations";
import type { ToolPorts } from "../../../src/core/tools/ports";
import { TranscriptInterpreter } from "../../../src/core/transcript/interpreter";

type AnySpec = ToolSpec<z.ZodRawShape>;

/** What the server is given, as it is given it (the ports are not touched while registering). */
function registered(): AnySpec[] {
  const specs: AnySpec[] = [];
  registerArcadiaTools((spec) => void specs.push(spec as unknown as AnySpec), {} as ToolPorts);
  return specs;
}

const declared: readonly DeclaredTool[] = ARCADIA_TOOLS;
const byName = (name: string) => declared.find((tool) => tool.name === name)!;

/** The rows a transcript's call of this tool makes, read by the real interpreter. */
function rowOf(name: string, input: unknown, result?: { is_error: boolean; content: string }) {
  const interpreter = new TranscriptInterpreter();
  const records: unknown[] = [
    { type: "user", message: { content: "go" } },
    { type: "assistant", message: { id: "msg_1", content: [{ type: "tool_use", id: "t1", name, input }], stop_reason: "tool_use" } },
    ...(result ? [{ type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t1", ...result }] } }] : []),
  ];
  const [call] = deriveToolCalls(records.flatMap((r) => interpreter.handle(r)));
  return { ...call!, shown: rowLabel(call!.outcome, call!.label, call!.action, call!.name) };
}

/**
 * An input naming what the call is about, in the field its declaration says, and the row's words
 * for it (running, then after a verdict). A tool about nothing in particular always reads as `otherwise`.
 */
function inputAbout(tool: DeclaredTool): { input: Record<string, string>; label: string; action: string } {
  const { of, label, action, otherwise } = tool.words;
  if (of === undefined) return { input: {}, ...otherwise };
  return "file" in of
    ? { input: { [of.file]: "/w/src/App.tsx" }, label: `${label}App.tsx`, action: `${action}App.tsx` }
    : { input: { [of.text]: "npm test" }, label: `${label}npm test`, action: `${action}npm test` };
}

describe("an Arcadia tool, declared once", () => {
  it("the server registers every declared tool and nothing else, as declared", () => {
    const specs = registered();
    expect(specs.map((s) => s.name)).toEqual(declared.map((t) => t.name));
    for (const spec of specs) {
      const tool = ARCADIA_TOOLS.find((t) => t.name === spec.name)!;
      expect(spec.title).toBe(tool.title);
      expect(spec.description).toBe(tool.description);
      expect(spec.annotations).toBe(tool.annotations);
      expect(spec.complete).toBe(tool.complete);
      // The schema the agent is checked against is the one the declaration builds: the same fields.
      expect(Object.keys(spec.inputSchema)).toEqual(Object.keys(tool.input(z)));
    }
  });

  it.each(declared.map((t) => t.name))("a transcript row of mcp__arcadia__%s reads in its declaration's words", (name) => {
    const tool = byName(name);
    const about = inputAbout(tool);
    const row = rowOf(`${ARCADIA_TOOL_PREFIX}${name}`, about.input);
    expect(row.shown).toBe(about.label);
    expect(rowOf(`${ARCADIA_TOOL_PREFIX}${name}`, {}).shown).toBe(tool.words.otherwise.label);
    // A verdict goes before the bare deed the declaration gives.
    const denied = rowOf(`${ARCADIA_TOOL_PREFIX}${name}`, about.input, { is_error: true, content: '{"status":"denied","message":"The user denied it."}' });
    expect(denied.shown).toBe(`Denied: ${about.action}`);
  });

  it.each(declared.map((t) => t.name))("Complete on a call of %s shows its declaration's hint", async (name) => {
    const tracker = new ToolCallTracker();
    const spec = registered().find((s) => s.name === name)!;
    // The handler is not what is looked at: a call that stays in flight until the test completes it.
    const call = tracker.wrapHandler({ ...spec, handler: () => new Promise(() => undefined) })({}, { agentId: "a1" });
    const [tracked] = tracker.calls();
    expect(tracked!.completeHint).toBe(byName(name).complete?.hint ?? GENERIC_COMPLETE_HINT);
    tracker.cancelCall(tracked!.id, "test over");
    await call;
  });

  it("the collision guard knows the files Arcadia's tools write from their declarations", () => {
    for (const tool of declared) {
      const name = `${ARCADIA_TOOL_PREFIX}${tool.name}`;
      expect(isEditTool(name)).toBe(tool.writes !== undefined);
      if (tool.writes) expect(editTarget(name, { [tool.writes]: "src/a.ts" }, "/w")).toBe("/w/src/a.ts");
    }
    expect(declared.filter((t) => t.writes).map((t) => t.name)).toEqual(["write_file", "apply_diff"]);
  });
});
