/**
 * Attack class: one agent exhausting the window's memory or flooding the panel. Every per-agent
 * collection is bounded: calls in flight (a clear tool error past the cap), pending approvals,
 * pending permission prompts (`{}` = no decision past the cap, one log line), and the remembered
 * PreToolUse inputs (bounded in count, and holding a digest instead of the input). Each cap holds
 * for the agent that floods, and the other agents keep working (the controls).
 */
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { PermissionBroker } from "../../../src/core/hooks/permissionBroker";
import { PreToolUseMemory } from "../../../src/core/hooks/preToolUseMemory";
import { ApprovalQueue } from "../../../src/core/mcp/approvalQueue";
import { AGENT_HEADER } from "../../../src/core/server";
import { type ArcadiaServer, eventually, startArcadiaServer } from "./support/arcadiaServer";

let arcadia: ArcadiaServer;
let broker: PermissionBroker | undefined;
afterEach(async () => {
  broker?.dispose();
  await arcadia?.close();
});

const textOf = (r: unknown) => ((r as { content: { text: string }[] }).content ?? []).map((c) => c.text).join("");

describe("calls in flight per agent", () => {
  it("past the cap, a new call gets a clear tool error and asks nothing; other agents are served", async () => {
    arcadia = await startArcadiaServer({ tracker: { maxCallsPerAgent: 3 } });
    const a = await arcadia.client("agent-A");
    const waiting = [];
    for (let i = 0; i < 3; i++) {
      const asked = arcadia.nextApproval();
      waiting.push({ call: a.callTool({ name: "execute_command", arguments: { command: `echo ${i}` } }), approval: await asked });
    }
    const refused = await a.callTool({ name: "execute_command", arguments: { command: "echo flood" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("Too many calls in flight from this agent: 3; wait for some to end");
    expect(arcadia.approvals.pending()).toHaveLength(3);
    expect(arcadia.tracker.calls()).toHaveLength(3);

    // Control: another agent is not held up by A's flood.
    const b = await arcadia.client("agent-B");
    const askedB = arcadia.nextApproval();
    const callB = b.callTool({ name: "execute_command", arguments: { command: "echo b" } });
    arcadia.approvals.decide((await askedB).id, "allow");
    expect((await callB).isError).toBeFalsy();

    // Control: once one of A's calls ends, A may call again.
    arcadia.approvals.decide(waiting[0]!.approval.id, "deny");
    await waiting[0]!.call;
    await eventually(() => arcadia.tracker.calls().length === 2);
    const askedAgain = arcadia.nextApproval();
    const again = a.callTool({ name: "execute_command", arguments: { command: "echo again" } });
    arcadia.approvals.decide((await askedAgain).id, "allow");
    expect((await again).isError).toBeFalsy();
    for (const w of waiting.slice(1)) arcadia.approvals.decide(w.approval.id, "deny");
    await Promise.all(waiting.map((w) => w.call));
  });
});

describe("pending approvals per agent", () => {
  it("past the cap, an approval is cancelled at once and never shown; other agents still ask", async () => {
    const approvals = new ApprovalQueue(2);
    const shown: string[] = [];
    approvals.onDidChange((c) => c.type === "added" && shown.push(c.approval.subject));
    approvals.enqueue("command", "one", { agentId: "agent-A" });
    approvals.enqueue("command", "two", { agentId: "agent-A" });
    const third = approvals.enqueue("command", "three", { agentId: "agent-A" });
    expect(await third.promise).toBe("cancelled");
    expect(shown).toEqual(["one", "two"]);
    const fromB = approvals.enqueue("command", "b", { agentId: "agent-B" });
    expect(shown).toEqual(["one", "two", "b"]);
    expect(approvals.decide(fromB.id, "allow")).toBe(true);
    expect(await fromB.promise).toBe("allow");
    // A slot frees when one is answered.
    approvals.decide(approvals.pending()[0]!.id, "deny");
    approvals.enqueue("command", "four", { agentId: "agent-A" });
    expect(shown).toContain("four");
  });
});

function hook(arcadiaServer: ArcadiaServer, agentId: string, body: object): Promise<string> {
  const { server } = arcadiaServer;
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${server.tokenFor(agentId)}`, [AGENT_HEADER]: agentId, "content-type": "application/json" };
    const req = request(server.hooksUrl, { method: "POST", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (c: string) => (text += c));
      res.on("end", () => resolve(text));
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const permission = (n: number) => ({ hook_event_name: "PermissionRequest", session_id: "s-1", tool_name: "Bash", tool_input: { command: `touch marker-${n}` }, permission_suggestions: [] });

describe("pending permission prompts per agent", () => {
  it("past the cap, a prompt gets {} at once (the terminal asks), with one log line per burst", async () => {
    const logs: string[] = [];
    broker = new PermissionBroker({ maxPendingPerAgent: 2, log: (m) => logs.push(m) });
    arcadia = await startArcadiaServer({ hooks: broker.handleHook });
    const held = [hook(arcadia, "agent-A", permission(1)), hook(arcadia, "agent-A", permission(2))];
    await eventually(() => broker!.pending("agent-A").length === 2);
    for (let i = 3; i < 8; i++) expect(await hook(arcadia, "agent-A", permission(i))).toBe("{}");
    expect(broker.pending("agent-A")).toHaveLength(2);
    expect(logs.filter((l) => l.includes("of its prompts already wait here"))).toHaveLength(1);

    // Control: another agent's prompt is shown and answered.
    const fromB = hook(arcadia, "agent-B", permission(9));
    await eventually(() => broker!.pending("agent-B").length === 1);
    broker.decide(broker.pending("agent-B")[0]!.id, "allow");
    expect(JSON.parse(await fromB)).toMatchObject({ hookSpecificOutput: { decision: { behavior: "allow" } } });
    for (const p of broker.pending()) broker.decide(p.id, "deny");
    await Promise.all(held);
  });
});

describe("remembered PreToolUse inputs", () => {
  it("keep a digest, never the input; matching still gives a prompt its tool_use id", () => {
    const memory = new PreToolUseMemory(4);
    const big = { command: "x".repeat(1024 * 1024), nested: { b: 1, a: [1, 2] } };
    const entry = memory.remember("agent-A", { sessionId: "s", promptId: "p", toolName: "Bash", toolInput: big, toolUseId: "toolu_1" });
    expect(JSON.stringify(entry).length).toBeLessThan(500);
    // The same input (keys in another order, as a second JSON.parse could give) is the same call.
    const sameInput = { nested: { a: [1, 2], b: 1 }, command: big.command };
    expect(memory.claim("agent-A", { sessionId: "s", promptId: "p", toolName: "Bash", toolInput: sameInput })).toBe("toolu_1");
    expect(memory.claim("agent-A", { sessionId: "s", promptId: "p", toolName: "Bash", toolInput: { ...sameInput, command: "y" } })).toBeUndefined();
  });

  it("never throw on an input nested deeper than the stack", () => {
    const memory = new PreToolUseMemory(4);
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(() => memory.remember("agent-A", { sessionId: "s", promptId: "p", toolName: "Bash", toolInput: deep, toolUseId: "toolu_d" })).not.toThrow();
    expect(memory.claim("agent-A", { sessionId: "s", promptId: "p", toolName: "Bash", toolInput: deep })).toBeUndefined();
  });
});
