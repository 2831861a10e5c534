import { describe, expect, it } from "vitest";
import { PermissionBroker, type PermissionChange } from "../../../src/core/hooks/permissionBroker";
import type { HookEventName, HookInput } from "../../../src/core/server";
import { ManualClock } from "../../../src/core/util/clock";

const SESSION = "5e551011-0000-4000-8000-000000000001";
const PROMPT = "prompt-1";
const ALLOW = { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } };
const SUGGESTIONS = [{ type: "addRules", rules: [{ toolName: "Bash", ruleContent: "touch:*" }], behavior: "allow", destination: "localSettings" }];

function input(event: HookEventName, fields: Record<string, unknown>): HookInput {
  return { hook_event_name: event, session_id: SESSION, prompt_id: PROMPT, cwd: "/w", transcript_path: "/t.jsonl", permission_mode: "default", ...fields };
}
const bash = (command: string) => ({ command, description: `Run ${command}` });

function setup(opts: ConstructorParameters<typeof PermissionBroker>[0] = {}) {
  const clock = new ManualClock(1_000);
  const broker = new PermissionBroker({ clock, ...opts });
  const changes: PermissionChange[] = [];
  broker.onDidChange((c) => changes.push(c));
  const send = (event: HookEventName, fields: Record<string, unknown>, agentId = "agent-1", signal = new AbortController().signal) =>
    Promise.resolve(broker.handleHook({ agentId, input: input(event, fields), signal }));
  const preToolUse = (toolUseId: string, toolInput: unknown, toolName = "Bash") =>
    send("PreToolUse", { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId });
  /** A PermissionRequest whose answer is still out; `answer` settles when the hook is answered. */
  const ask = (toolInput: unknown, extra: Record<string, unknown> = {}, agentId = "agent-1") => {
    const aborter = new AbortController();
    let settled: object | undefined;
    const answer = send("PermissionRequest", { tool_name: "Bash", tool_input: toolInput, permission_suggestions: [], ...extra }, agentId, aborter.signal).then(
      (a) => (settled = a),
    );
    return { answer, aborter, settled: () => settled };
  };
  return { clock, broker, changes, send, preToolUse, ask };
}

const flush = () => new Promise((r) => setImmediate(r));

describe("PermissionRequest ↔ PreToolUse matching", () => {
  it("gives two calls of the same tool, with different inputs, each its own tool_use id", async () => {
    const { broker, preToolUse, ask } = setup();
    await preToolUse("toolu_A", bash("touch a.txt"));
    await preToolUse("toolu_B", bash("touch b.txt"));
    ask(bash("touch b.txt"));
    ask(bash("touch a.txt"));
    const byCommand = Object.fromEntries(broker.pending().map((p) => [(p.toolInput as { command: string }).command, p.toolUseId]));
    expect(byCommand).toEqual({ "touch a.txt": "toolu_A", "touch b.txt": "toolu_B" });
  });

  it("gives two calls with identical inputs one id each, never the same one twice", async () => {
    const { broker, preToolUse, ask } = setup();
    await preToolUse("toolu_1", bash("make"));
    await preToolUse("toolu_2", bash("make"));
    ask(bash("make"));
    ask(bash("make"));
    expect(
      broker
        .pending()
        .map((p) => p.toolUseId)
        .sort(),
    ).toEqual(["toolu_1", "toolu_2"]);
  });

  it("does not match a call of another prompt, session, tool or agent", async () => {
    const { broker, send, ask } = setup();
    await send("PreToolUse", { tool_name: "Bash", tool_input: bash("ls -l x"), tool_use_id: "toolu_old", prompt_id: "prompt-0" });
    await send("PreToolUse", { tool_name: "Bash", tool_input: bash("ls -l x"), tool_use_id: "toolu_other_session", session_id: "other" });
    await send("PreToolUse", { tool_name: "Write", tool_input: bash("ls -l x"), tool_use_id: "toolu_write" });
    await send("PreToolUse", { tool_name: "Bash", tool_input: bash("ls -l x"), tool_use_id: "toolu_agent2" }, "agent-2");
    ask(bash("ls -l x"));
    expect(broker.pending()).toHaveLength(1);
    expect(broker.pending()[0]!.toolUseId).toBeUndefined();
  });

  it("learns the id when the PreToolUse comes after its request (out of order)", async () => {
    const { broker, changes, preToolUse, ask } = setup();
    ask(bash("touch late.txt"));
    expect(broker.pending()[0]!.toolUseId).toBeUndefined();
    await preToolUse("toolu_other", bash("touch other.txt"));
    await preToolUse("toolu_late", bash("touch late.txt"));
    expect(broker.pending()[0]!.toolUseId).toBe("toolu_late");
    expect(changes.map((c) => c.type)).toEqual(["added", "updated"]);
  });

  it("keeps a bounded memory of calls per agent", async () => {
    const { preToolUse, ask, broker } = setup({ maxRememberedCallsPerAgent: 3 });
    for (let i = 0; i < 5; i++) await preToolUse(`toolu_${i}`, bash(`echo ${i} > f`));
    ask(bash("echo 0 > f"));
    ask(bash("echo 4 > f"));
    expect(broker.pending().map((p) => p.toolUseId)).toEqual([undefined, "toolu_4"]);
  });
});

describe("a pending request", () => {
  it("carries what the panel shows, and says whether 'Always allow' is possible", async () => {
    const { broker, preToolUse, ask } = setup();
    await preToolUse("toolu_rm", bash("rm -rf build"));
    ask(bash("rm -rf build"), { permission_suggestions: SUGGESTIONS, agent_id: "sub-1" });
    ask(bash("touch y"));
    expect(broker.pending()).toEqual([
      expect.objectContaining({
        agentId: "agent-1",
        sessionId: SESSION,
        toolUseId: "toolu_rm",
        subagentId: "sub-1",
        toolName: "Bash",
        toolInput: bash("rm -rf build"),
        subject: "Bash: rm -rf build",
        canAlwaysAllow: true,
        receivedAt: 1_000,
      }),
      expect.objectContaining({ subject: "Bash: touch y", canAlwaysAllow: false }),
    ]);
    expect(broker.pending("agent-2")).toEqual([]);
  });

  it("is answered with the decision the CLI reads, once: a second decide does nothing", async () => {
    const { broker, changes, ask } = setup();
    const req = ask(bash("touch x"));
    const id = broker.pending()[0]!.id;
    expect(broker.decide(id, "allow")).toBe(true);
    expect(await req.answer).toEqual(ALLOW);
    expect(broker.decide(id, "deny")).toBe(false);
    expect(broker.decide("no-such-id", "allow")).toBe(false);
    expect(broker.pending()).toEqual([]);
    expect(changes.map((c) => [c.type, c.type === "removed" ? c.reason : ""])).toEqual([
      ["added", ""],
      ["removed", "decided"],
    ]);
  });

  it("deny stops the call like 'No' in the terminal; always-allow hands back the CLI's own suggestions", async () => {
    const { broker, ask } = setup();
    const denied = ask(bash("rm -rf /tmp/x"));
    broker.decide(broker.pending()[0]!.id, "deny");
    expect(await denied.answer).toEqual({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: expect.stringContaining("denied"), interrupt: true } },
    });
    const always = ask(bash("touch x"), { permission_suggestions: SUGGESTIONS });
    broker.decide(broker.pending()[0]!.id, "alwaysAllow");
    expect(await always.answer).toEqual({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow", updatedPermissions: SUGGESTIONS } },
    });
    const noSuggestions = ask(bash("touch z"));
    broker.decide(broker.pending()[0]!.id, "alwaysAllow");
    expect(await noSuggestions.answer).toEqual(ALLOW);
  });

  it("lets the model carry on after a deny when told not to interrupt", async () => {
    const { broker, ask } = setup({ denyInterrupts: false });
    const denied = ask(bash("rm x"));
    broker.decide(broker.pending()[0]!.id, "deny");
    expect(await denied.answer).toMatchObject({ hookSpecificOutput: { decision: { behavior: "deny", interrupt: false } } });
  });
});

describe("when Arcadia cannot show the request", () => {
  it("answers 'no decision' at once, and shows nothing", async () => {
    const { broker, changes, ask } = setup({ available: false });
    const req = ask(bash("touch x"));
    expect(await req.answer).toEqual({});
    expect(broker.pending()).toEqual([]);
    expect(changes).toEqual([]);
  });

  it("answers the requests already waiting when it becomes unavailable", async () => {
    const { broker, changes, ask } = setup();
    const req = ask(bash("touch x"));
    broker.setAvailable(false);
    expect(await req.answer).toEqual({});
    expect(changes.at(-1)).toMatchObject({ type: "removed", reason: "unavailable" });
    broker.setAvailable(true);
    ask(bash("touch y"));
    expect(broker.pending()).toHaveLength(1);
  });

  it("answers a request from an agent no card shows 'no decision' at once (the terminal asks)", async () => {
    const { broker, ask } = setup({ isKnownAgent: (id) => id === "agent-1" });
    expect(await ask(bash("touch x"), {}, "agent-gone").answer).toEqual({});
    ask(bash("touch y"));
    expect(broker.pending().map((p) => p.agentId)).toEqual(["agent-1"]);
  });
});

describe("answered elsewhere", () => {
  it("goes when the CLI aborts the hook (Escape at the terminal prompt)", async () => {
    const { broker, changes, ask } = setup();
    const req = ask(bash("touch x"));
    req.aborter.abort();
    await flush();
    expect(broker.pending()).toEqual([]);
    expect(changes.at(-1)).toMatchObject({ type: "removed", reason: "answeredElsewhere" });
    expect(broker.decide(changes[0]!.request.id, "allow")).toBe(false);
  });

  it("goes when its call ends (PostToolUse / PostToolUseFailure), not when another call does", async () => {
    const { broker, preToolUse, send, ask } = setup();
    await preToolUse("toolu_A", bash("touch a"));
    await preToolUse("toolu_B", bash("touch b"));
    const a = ask(bash("touch a"));
    ask(bash("touch b"));
    await send("PostToolUse", { tool_name: "Bash", tool_input: bash("touch a"), tool_use_id: "toolu_A", tool_response: {} });
    expect(await a.answer).toEqual({});
    expect(broker.pending().map((p) => p.toolUseId)).toEqual(["toolu_B"]);
    await send("PostToolUseFailure", { tool_name: "Bash", tool_input: bash("touch b"), tool_use_id: "toolu_B", error: "x" });
    expect(broker.pending()).toEqual([]);
  });

  it("goes when the integration says so (status file left `waiting`), for that agent and time only", async () => {
    const { broker, clock, ask } = setup();
    const first = ask(bash("touch 1"));
    ask(bash("touch other"), {}, "agent-2");
    clock.advance(500);
    ask(bash("touch 2"));
    expect(broker.answeredElsewhere("agent-1", { before: 1_200 })).toBe(1);
    expect(await first.answer).toEqual({});
    expect(broker.pending().map((p) => p.subject)).toEqual(["Bash: touch other", "Bash: touch 2"]);
    expect(broker.answeredElsewhere("agent-1")).toBe(1);
    expect(broker.pending().map((p) => p.agentId)).toEqual(["agent-2"]);
  });
});

describe("never hanging the CLI", () => {
  it("answers 'no decision' when nobody decides before the hook would time out", async () => {
    const { broker, clock, changes, ask } = setup({ decisionTimeoutMs: 60_000 });
    const req = ask(bash("touch x"));
    clock.advance(59_999);
    expect(req.settled()).toBeUndefined();
    clock.advance(1);
    expect(await req.answer).toEqual({});
    expect(changes.at(-1)).toMatchObject({ type: "removed", reason: "timedOut" });
    expect(broker.decide(changes[0]!.request.id, "allow")).toBe(false);
  });

  it("answers every other hook at once with nothing to say", async () => {
    const { send } = setup();
    expect(await send("PreToolUse", { tool_name: "Bash", tool_input: {}, tool_use_id: "t" })).toEqual({});
    expect(await send("PostToolUse", { tool_use_id: "t" })).toEqual({});
    expect(await send("PreCompact", {})).toEqual({});
    expect(await send("PreToolUse", {})).toEqual({});
  });

  it("answers an agent's requests when the agent goes, and all of them on dispose", async () => {
    const { broker, ask } = setup();
    const a = ask(bash("touch a"));
    const b = ask(bash("touch b"), {}, "agent-2");
    broker.forgetAgent("agent-1");
    expect(await a.answer).toEqual({});
    expect(broker.pending().map((p) => p.agentId)).toEqual(["agent-2"]);
    broker.dispose();
    expect(await b.answer).toEqual({});
  });

  it("keeps answering when a change listener throws", async () => {
    const { broker, ask } = setup();
    broker.onDidChange(() => {
      throw new Error("listener bug");
    });
    const req = ask(bash("touch x"));
    expect(broker.decide(broker.pending()[0]!.id, "allow")).toBe(true);
    expect(await req.answer).toEqual(ALLOW);
  });
});
