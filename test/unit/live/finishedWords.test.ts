/**
 * A finished command's row says what it did, not that it runs (issue 33): "wc -l README.md" beside
 * its ✓, never "Running: wc -l README.md" on an idle agent. Whichever source ended the row — the
 * hook feed ahead of the transcript, the transcript, a restored card, Arcadia's own execute_command
 * — the words come from one rule (core/agent/shownRows.ts → core/labels rowLabel). Hook inputs are
 * shaped as CLI 2.1.330 sends them; transcript records are read by the real interpreter.
 */
import { describe, expect, it } from "vitest";
import { initialAgentState, reduceAgent } from "../../../src/core/agent/agentState";
import { shownRows } from "../../../src/core/agent/shownRows";
import { HookToolFeed } from "../../../src/core/hooks/hookToolFeed";
import { ARCADIA_TOOL_PREFIX } from "../../../src/core/toolDeclarations";
import type { TranscriptEvent } from "../../../src/core/transcript/events";
import { TranscriptInterpreter } from "../../../src/core/transcript/interpreter";
import { ManualClock } from "../../../src/core/util/clock";

const SESSION = "s-1";
const AGENT = "agent-1";
const COMMAND = "wc -l README.md";

/** A turn's records: the prompt, one call of `name`, its result if any, and the turn's end if it ended. */
function transcript(name: string, input: unknown, result?: { is_error: boolean; content: string }, ended = false): TranscriptEvent[] {
  const interpreter = new TranscriptInterpreter();
  const records: unknown[] = [
    { type: "user", message: { content: "count the lines" } },
    { type: "assistant", message: { id: "msg_1", content: [{ type: "tool_use", id: "t1", name, input }], stop_reason: "tool_use" } },
    ...(result ? [{ type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t1", ...result }] } }] : []),
    ...(ended ? [{ type: "system", subtype: "turn_duration", durationMs: 1200 }] : []),
  ];
  return records.flatMap((r) => interpreter.handle(r));
}

/** Each row as a person reads it on the card: its words and its icon's outcome. */
function read(events: TranscriptEvent[], live?: { feed: HookToolFeed; idle: boolean }): string[] {
  const state = events.reduce(reduceAgent, initialAgentState);
  const sources = live && { sessionId: SESSION, hookTools: live.feed.tools(AGENT), waits: new Map(), parentOfSubagent: () => undefined, idle: live.idle };
  return shownRows(events, state, sources).map((r) => `${r.label} · ${r.outcome}`);
}

function bashHook(event: "PreToolUse" | "PostToolUse" | "PostToolUseFailure", extra: Record<string, unknown> = {}) {
  return { hook_event_name: event, session_id: SESSION, tool_name: "Bash", tool_input: { command: COMMAND }, tool_use_id: "t1", ...extra };
}

describe("a finished command's row reads as the command, not as running", () => {
  it("ended by its PostToolUse hook before the transcript has its result, the agent then idle: the command alone beside its ✓", () => {
    const feed = new HookToolFeed({ clock: new ManualClock(1_000_000) });
    feed.observe(AGENT, bashHook("PreToolUse"));
    expect(read([], { feed, idle: false })).toEqual([`Running: ${COMMAND} · running`]);
    feed.observe(AGENT, bashHook("PostToolUse", { tool_response: { stdout: "12 README.md" } }));
    // The transcript has the call but not yet its result (it writes seconds later).
    const events = transcript("Bash", { command: COMMAND });
    expect(read(events, { feed, idle: false })).toEqual([`${COMMAND} · done`]);
    expect(read(events, { feed, idle: true })).toEqual([`${COMMAND} · done`]);
  });

  it("a command that failed (PostToolUseFailure) reads as the command beside its ✗", () => {
    const feed = new HookToolFeed({ clock: new ManualClock(1_000_000) });
    feed.observe(AGENT, bashHook("PreToolUse"));
    feed.observe(AGENT, bashHook("PostToolUseFailure", { error: "exit 1" }));
    expect(read([], { feed, idle: true })).toEqual([`${COMMAND} · error`]);
  });

  it("ended by the transcript, live or restored after a reload: the same words", () => {
    const events = transcript("Bash", { command: COMMAND }, { is_error: false, content: "12 README.md" }, true);
    const feed = new HookToolFeed({ clock: new ManualClock(1_000_000) });
    expect(read(events, { feed, idle: true })).toEqual([`${COMMAND} · done`]);
    expect(read(events)).toEqual([`${COMMAND} · done`]);
  });

  it("Arcadia's own execute_command, once done, reads as its command; while it runs, as running", () => {
    const name = `${ARCADIA_TOOL_PREFIX}execute_command`;
    expect(read(transcript(name, { command: COMMAND }))).toEqual([`Running: ${COMMAND} · running`]);
    expect(read(transcript(name, { command: COMMAND }, { is_error: false, content: "12 README.md" }, true))).toEqual([`${COMMAND} · done`]);
  });

  it("a verdict still goes before the bare deed, and a call that is not a command keeps its words once done", () => {
    const denied = transcript("Bash", { command: COMMAND }, { is_error: true, content: "Permission to use Bash has been denied." }, true);
    expect(read(denied)).toEqual([`Denied: ${COMMAND} · denied`]);
    expect(read(transcript("Read", { file_path: "/w/App.tsx" }, { is_error: false, content: "…" }, true))).toEqual(["Reading App.tsx · done"]);
  });
});
