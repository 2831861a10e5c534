/**
 * What a sandboxed command left behind is put to the user as Remove / Keep, not Allow / Deny:
 * the approval carries its own two answer words (Keep, which loses nothing, the harmless default),
 * the card's prompt shows them, and the answer given on the card (through the prompt desk, as the
 * panel's buttons send it) removes or keeps the thing on the disk. Real approval queue, live board
 * and prompt desk; the files are real.
 */
import { chmodSync, existsSync, mkdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LiveBoard } from "../../../src/agents/cards/liveBoard";
import { PromptDesk } from "../../../src/agents/tools/promptDesk";
import { type Approval, ApprovalQueue } from "../../../src/core/mcp/approvalQueue";
import type { CallContext } from "../../../src/core/mcp";
import { ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import type { LeftBehind } from "../../../src/core/sandbox";
import { reviewLeftBehind } from "../../../src/core/tools/leftBehindReview";
import type { ToolPorts } from "../../../src/core/tools/ports";
import { Emitter } from "../../../src/core/util/emitter";
import { useTempDirs } from "../../support/tempDir";
import { pollUntil } from "../../support/waitFor";

const tempDir = useTempDirs();

function setup() {
  const approvals = new ApprovalQueue();
  const tracker = new ToolCallTracker();
  const none = new Emitter<void>();
  const board = new LiveBoard({
    calls: tracker,
    approvals,
    permissions: { pending: () => [], onDidChange: none.event },
    hooks: { tools: () => [], onDidChange: new Emitter<string>().event },
  });
  const desk = new PromptDesk({
    approvals,
    tracker,
    permissions: { decide: () => false, pending: () => [] },
    diffs: { accept: () => undefined, reject: () => undefined, reveal: () => undefined },
    focusAgent: () => undefined,
    log: { info: () => undefined },
  });
  const asked: Approval[] = [];
  approvals.onDidChange((c) => void (c.type === "added" && asked.push(c.approval)));
  const context: CallContext = {
    callId: "call-1",
    agentId: "a1",
    signal: new AbortController().signal,
    linkApproval: () => undefined,
    linkTerminal: () => undefined,
    linkDiff: () => undefined,
  };
  // Only the approvals are used by the review: the rest of the ports stay out.
  const ports = { approvals } as unknown as ToolPorts;
  return { approvals, board, desk, asked, context, ports };
}

/** A workspace with what a command could leave: sub/.git (fsmonitor) and .mcp.json. */
function leftovers(): { ws: string; found: LeftBehind[] } {
  const ws = realpathSync(tempDir());
  mkdirSync(join(ws, "sub", ".git"), { recursive: true });
  writeFileSync(join(ws, "sub", ".git", "config"), "[core]\n\tfsmonitor = touch /tmp/pwned\n");
  writeFileSync(join(ws, ".mcp.json"), '{"mcpServers":{}}');
  return {
    ws,
    found: [
      { path: join(ws, "sub", ".git"), said: "created sub/.git with core.fsmonitor, a program git would run" },
      { path: join(ws, ".mcp.json"), said: "created .mcp.json, MCP servers Claude Code starts" },
    ],
  };
}

/** Waits until the review has put its n-th question up (after the previous answer was acted on). */
function nextAsked(asked: Approval[], n: number): Promise<Approval> {
  return pollUntil(() => asked[n - 1], `question ${n} on the card`, 10_000, 5);
}

describe("what a command left behind: Remove / Keep", () => {
  it("each thing is asked on the card with Remove and Keep (Keep the default), in plain words; Remove removes it, Keep keeps it", async () => {
    const { board, desk, asked, context, ports } = setup();
    const { ws, found } = leftovers();
    const review = reviewLeftBehind(ports, context, found);

    const first = await nextAsked(asked, 1);
    const prompt = board.view("a1").prompts.find((p) => p.id === first.id);
    expect(prompt).toMatchObject({
      subject: join(ws, "sub", ".git"),
      reason: "the agent's command created sub/.git with core.fsmonitor, a program git would run. Remove deletes it; Keep leaves it as it is",
      wording: { title: "Left behind by its command:", allow: "Remove", deny: "Keep", harmless: "deny" },
    });
    // The card's Remove button sends allow.
    desk.answer(first.id, "allow");

    const second = await nextAsked(asked, 2);
    expect(board.view("a1").prompts.map((p) => p.wording?.deny)).toEqual(["Keep"]);
    // The card's Keep button sends deny.
    desk.answer(second.id, "deny");

    expect(await review).toEqual([
      { said: "created sub/.git with core.fsmonitor, a program git would run", removed: true },
      { said: "created .mcp.json, MCP servers Claude Code starts", removed: false },
    ]);
    expect(existsSync(join(ws, "sub", ".git"))).toBe(false);
    expect(existsSync(join(ws, "sub"))).toBe(true);
    expect(existsSync(join(ws, ".mcp.json"))).toBe(true);
  });

  it("a question withdrawn (the call cancelled) removes nothing", async () => {
    const { approvals, asked, context, ports } = setup();
    const { ws, found } = leftovers();
    const review = reviewLeftBehind(ports, context, found.slice(0, 1));
    approvals.cancelApproval((await nextAsked(asked, 1)).id);
    expect(await review).toEqual([{ said: found[0]!.said, removed: false }]);
    expect(existsSync(join(ws, "sub", ".git", "config"))).toBe(true);
  });

  it("a folder left unreadable is removed whole on Remove; a workspace folder left unreadable is never deleted: Open gives its permission back", async () => {
    const { asked, context, ports, desk, board } = setup();
    const ws = realpathSync(tempDir());
    mkdirSync(join(ws, "src", "sub", ".git"), { recursive: true });
    chmodSync(join(ws, "src"), 0o000);
    chmodSync(ws, 0o000);
    const review = reviewLeftBehind(ports, context, [
      { path: join(ws, "src"), said: "left src unreadable: Arcadia could not look inside it", unchecked: true },
      { path: ws, said: "left the workspace folder itself unreadable: Arcadia could not look inside it", unchecked: true, root: true },
    ]);
    desk.answer((await nextAsked(asked, 1)).id, "allow");
    const second = await nextAsked(asked, 2);
    expect(board.view("a1").prompts.find((p) => p.id === second.id)).toMatchObject({
      reason: expect.stringContaining("Open gives you read permission on it again (u+rwx; nothing is deleted)"),
      wording: { allow: "Open", deny: "Keep", harmless: "deny" },
    });
    desk.answer(second.id, "allow");
    expect(await review).toEqual([
      { said: "left src unreadable: Arcadia could not look inside it", removed: true },
      { said: "left the workspace folder itself unreadable: Arcadia could not look inside it", removed: false, opened: true },
    ]);
    expect(statSync(ws).mode & 0o777).toBe(0o700);
    expect(existsSync(join(ws, "src"))).toBe(false);
  });

  it("an approval without words of its own keeps the card's Allow / Deny (no wording on its prompt)", () => {
    const { approvals, board } = setup();
    approvals.enqueue("command", "rm -rf build", { agentId: "a1", reason: "it is not on arcadia.mcp.allowedCommands" });
    expect(board.view("a1").prompts[0]).not.toHaveProperty("wording");
  });
});
