/**
 * The scripted model's `perPrompt` conversations (steps restart at every prompt) and the demo
 * model built on them (`npm run demo`): any prompt, any number of turns, gets the same sensible
 * reply sequence, with ids that stay unique across turns.
 */
import { describe, expect, it } from "vitest";
import { demoScript, HELPER_MARK, SIDE_REQUESTS } from "../../scripts/demo/demoModel";
import { startModelServer } from "../rig/model-server";
import { assistantCountSincePrompt, selectReply, type MessagesRequestBody, type Script } from "../rig/script";

const TOOLS = [{ name: "Read" }, { name: "Bash" }];
type Message = { role: string; content: unknown };

const prompt = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const toolUse = (id: string): Message => ({ role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: {} }] });
const toolResult = (id: string): Message => ({
  role: "user",
  // The CLI attaches reminders to tool results; they are not a prompt.
  content: [
    { type: "tool_result", tool_use_id: id, content: "ok" },
    { type: "text", text: "<system-reminder>files changed</system-reminder>" },
  ],
});
const reply = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }] });
const body = (messages: Message[]): MessagesRequestBody => ({ messages, tools: TOOLS });

const script: Script = {
  conversations: [{ match: "", perPrompt: true, steps: [{ tools: [{ name: "Bash", input: { command: "ls" } }] }, { text: "summary" }] }],
  fallbackText: "fallback",
};

describe("perPrompt conversations", () => {
  it("counts assistant messages since the latest prompt, not since the start", () => {
    expect(assistantCountSincePrompt(body([prompt("a")]))).toBe(0);
    expect(assistantCountSincePrompt(body([prompt("a"), toolUse("t1"), toolResult("t1")]))).toBe(1);
    const secondTurn = [prompt("a"), toolUse("t1"), toolResult("t1"), reply("summary"), prompt("b")];
    expect(assistantCountSincePrompt(body(secondTurn))).toBe(0);
    expect(assistantCountSincePrompt(body([...secondTurn, toolUse("t2"), toolResult("t2")]))).toBe(1);
  });

  it("answers every turn with the same steps, whatever the prompt", () => {
    const turn1 = [prompt("anything at all")];
    expect(selectReply(script, body(turn1))).toMatchObject({ kind: "step", index: 0 });
    const mid = [...turn1, toolUse("t1"), toolResult("t1")];
    expect(selectReply(script, body(mid))).toMatchObject({ kind: "step", index: 1, step: { text: "summary" } });
    const turn2 = [...mid, reply("summary"), prompt("something else")];
    expect(selectReply(script, body(turn2))).toMatchObject({ kind: "step", index: 0 });
    // An interrupted turn (Escape during a tool) leaves no summary; the next prompt starts over.
    const interrupted: Message = {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t2", content: "rejected" },
        { type: "text", text: "[Request interrupted by user for tool use]" },
      ],
    };
    const turn3 = [...turn2, toolUse("t2"), interrupted, prompt("again")];
    expect(selectReply(script, body(turn3))).toMatchObject({ kind: "step", index: 0 });
  });

  it("leaves ordinary conversations counting from the start", () => {
    const plain: Script = { conversations: [{ ...script.conversations[0]!, perPrompt: undefined }] };
    const turn2 = [prompt("a"), toolUse("t1"), toolResult("t1"), reply("summary"), prompt("b")];
    expect(selectReply(plain, body(turn2))).toMatchObject({ kind: "fallback" });
  });

  it("gives replies of later turns their own ids", async () => {
    const server = await startModelServer({ script });
    try {
      const post = async (messages: Message[]) => {
        const res = await fetch(`${server.url}/v1/messages`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-claude-code-session-id": "abcdef12-0000" },
          body: JSON.stringify({ ...body(messages), stream: false }),
        });
        return (await res.json()) as { id: string; content: { id?: string }[] };
      };
      const first = await post([prompt("a")]);
      const second = await post([prompt("a"), toolUse("t1"), toolResult("t1"), reply("summary"), prompt("b")]);
      expect(second.id).not.toBe(first.id);
      expect(second.content[0]!.id).not.toBe(first.content[0]!.id);
    } finally {
      await server.close();
    }
  });
});

describe("conversations told apart by the request", () => {
  it("gives agents with the same prompt in different folders their own replies (a race's worktrees)", () => {
    const race: Script = {
      conversations: [
        { match: "Fix it", requestIncludes: "/worktrees/fix-1", steps: [{ text: "one" }] },
        { match: "Fix it", requestIncludes: "/worktrees/fix-2", steps: [{ text: "two" }] },
      ],
    };
    const inFolder = (folder: string): MessagesRequestBody => ({
      ...body([prompt("Fix it")]),
      system: [{ type: "text", text: `Primary working directory: ${folder}` }],
    });
    expect(selectReply(race, inFolder("/r/.claude/worktrees/fix-2"))).toMatchObject({ kind: "step", conversation: 1, step: { text: "two" } });
    expect(selectReply(race, inFolder("/r/.claude/worktrees/fix-1"))).toMatchObject({ kind: "step", conversation: 0, step: { text: "one" } });
    expect(selectReply(race, inFolder("/r/elsewhere"))).toMatchObject({ kind: "fallback" });
  });
});

describe("the demo model", () => {
  const demo = demoScript(new Date(2026, 10, 26, 15, 20));
  const tour = demo.conversations.findIndex((c) => c.match === "");
  const helper = demo.conversations.findIndex((c) => c.match === HELPER_MARK);

  it("answers any prompt: tools first, every text labelled as the demo model", () => {
    const first = selectReply(demo, body([prompt("Please refactor everything")]));
    expect(first).toMatchObject({ kind: "step", conversation: tour, index: 0 });
    const texts = demo.conversations.flatMap((c) =>
      c.steps.flatMap((s) =>
        "text" in s && s.text !== undefined ? [s.text] : "then" in s && "text" in s.then && s.then.text !== undefined ? [s.then.text] : [],
      ),
    );
    expect(texts.length).toBeGreaterThan(10);
    for (const text of texts) expect(text).toMatch(/^\[demo model/);
    expect(demo.fallbackText).toMatch(/^\[demo model/);
  });

  it("gives the helper sub-agent its own script, found by its prompt", () => {
    const agent = demo.conversations[tour]!.steps.flatMap((s) => ("tools" in s ? s.tools : [])).find((t) => t.name === "Agent");
    const helperPrompt = (agent!.input as { prompt: string }).prompt;
    expect(helperPrompt.startsWith(HELPER_MARK)).toBe(true);
    expect(selectReply(demo, body([prompt(helperPrompt)]))).toMatchObject({ kind: "step", conversation: helper, index: 0 });
  });

  it("runs its steps again on a later turn, then ends it with a text reply", () => {
    const steps = demo.conversations[tour]!.steps.length;
    let messages: Message[] = [prompt("first"), reply("...") /* any earlier turn */, prompt("second")];
    for (let i = 0; i < steps; i++) {
      const sel = selectReply(demo, body(messages));
      expect(sel).toMatchObject({ kind: "step", index: i });
      messages = [...messages, toolUse(`t${i}`), toolResult(`t${i}`)];
    }
    const last = demo.conversations[tour]!.steps.at(-1)!;
    expect("tools" in last).toBe(false);
  });

  it("asks permission exactly once, for a file in the workspace, then runs one long command through Arcadia's tools", () => {
    const tools = [demo.conversations[tour]!, demo.conversations[helper]!].flatMap((c) => c.steps.flatMap((s) => ("tools" in s ? s.tools : [])));
    for (const t of tools) expect(["Read", "Bash", "Agent", "mcp__arcadia__execute_command"]).toContain(t.name);
    const commands = tools.filter((t) => t.name === "Bash").map((t) => (t.input as { command: string }).command);
    // Read-only commands, which 2.1.330 runs in default mode without asking — but one `touch`,
    // the permission prompt the demo shows answered from the card.
    const asking = commands.filter((c) => !/^(ls|grep|sleep) /.test(c));
    expect(asking).toEqual(["touch demo-notes.txt"]);
    const long = tools.filter((t) => t.name === "mcp__arcadia__execute_command");
    expect(long).toHaveLength(1);
    expect((long[0]!.input as { timeout_seconds: number }).timeout_seconds).toBeGreaterThan(60);
  });
});

describe("the demo model's answers to the CLI's side requests", () => {
  const demo = demoScript();
  // A forked side request carries the whole conversation and its tools: only its last message says what it is.
  const forked = (last: string) => body([prompt("Please refactor everything"), toolUse("t1"), toolResult("t1"), reply("done"), prompt(last)]);

  it.each(Object.entries(SIDE_REQUESTS))("answers the %s request with a short text and no tools", (_, phrase) => {
    const selection = selectReply(demo, forked(`${phrase} — the rest of the CLI's instructions`));
    expect(selection.kind).toBe("sideQuery");
    const step = (selection as { step: object }).step;
    expect("tools" in step).toBe(false);
    expect((step as { text: string }).text.length).toBeLessThan(120);
  });
});
