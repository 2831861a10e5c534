/**
 * An answer on the card reaches the prompt it was given for, whichever of the three owners holds
 * it (Arcadia's approvals, a write's diff review, Claude Code's permission prompt), and a late
 * answer is dropped with a log line, never applied to something else.
 */
import { describe, expect, it } from "vitest";
import { PromptDesk, type PromptDeskDeps } from "../../../src/agents/tools/promptDesk";
import { ApprovalQueue } from "../../../src/core/mcp/approvalQueue";
import type { TrackedCall } from "../../../src/core/mcp/toolCallTracker";

function desk(opts: { diffIds?: string[]; permissions?: { id: string; agentId: string }[] } = {}) {
  const approvals = new ApprovalQueue();
  const seen: string[] = [];
  const permissionIds = new Set((opts.permissions ?? []).map((p) => p.id));
  const deps: PromptDeskDeps = {
    approvals,
    tracker: { calls: () => (opts.diffIds ?? []).map((diffId) => ({ id: `call-${diffId}`, diffId }) as TrackedCall) },
    permissions: {
      decide: (id, answer) => {
        if (!permissionIds.delete(id)) return false;
        seen.push(`permission ${id} ${answer}`);
        return true;
      },
      pending: () => (opts.permissions ?? []).filter((p) => permissionIds.has(p.id)) as never,
    },
    diffs: {
      accept: (id) => seen.push(`accept ${id}`),
      reject: (id) => seen.push(`reject ${id}`),
      reveal: (id) => seen.push(`reveal ${id}`),
    },
    focusAgent: (id) => seen.push(`focus ${id}`),
    log: { info: (m) => seen.push(`log ${m}`) },
  };
  return { desk: new PromptDesk(deps), approvals, seen };
}

describe("PromptDesk: an answer goes to the prompt's owner", () => {
  it("Arcadia's command approval: Allow allows it (and 'always' allows just this call)", async () => {
    const { desk: d, approvals } = desk();
    const first = approvals.enqueue("command", "npm test", { agentId: "a" });
    const second = approvals.enqueue("command", "npm run lint", { agentId: "a" });
    d.answer(first.id, "deny");
    d.answer(second.id, "alwaysAllow");
    await expect(first.promise).resolves.toBe("deny");
    await expect(second.promise).resolves.toBe("allow");
  });

  it("a write's diff: Allow accepts it, Deny rejects it", () => {
    const { desk: d, seen } = desk({ diffIds: ["diff-1", "diff-2"] });
    d.answer("diff-1", "allow");
    d.answer("diff-2", "deny");
    expect(seen).toEqual(["accept diff-1", "reject diff-2"]);
  });

  it("Claude Code's permission prompt gets the answer as given, 'always' included", () => {
    const { desk: d, seen } = desk({ permissions: [{ id: "perm-1", agentId: "a" }] });
    d.answer("perm-1", "alwaysAllow");
    expect(seen).toEqual(["permission perm-1 alwaysAllow"]);
  });

  it("a late answer (already answered in the terminal) is logged and applied nowhere", async () => {
    const { desk: d, approvals, seen } = desk({ diffIds: ["diff-1"] });
    const waiting = approvals.enqueue("command", "npm test", { agentId: "a" });
    d.answer("perm-gone", "allow");
    expect(seen).toEqual([expect.stringContaining("log prompt perm-gone was already answered")]);
    expect(approvals.pending().map((a) => a.id)).toEqual([waiting.id]);
  });
});

describe("PromptDesk: looking closer", () => {
  it("a permission prompt shows its agent's terminal; a diff opens; an approval shows its agent", () => {
    const { desk: d, approvals, seen } = desk({ diffIds: ["diff-1"], permissions: [{ id: "perm-1", agentId: "agent-2" }] });
    const approval = approvals.enqueue("path", "Read: /etc/hosts", { agentId: "agent-3" });
    d.reveal("perm-1");
    d.reveal("diff-1");
    d.reveal(approval.id);
    d.reveal("unknown");
    expect(seen).toEqual(["focus agent-2", "reveal diff-1", "focus agent-3"]);
  });
});
