import { describe, expect, it } from "vitest";
import { type ApprovalChange, ApprovalQueue } from "../../../src/core/mcp/approvalQueue";

describe("ApprovalQueue", () => {
  it("returns the id at once and the decision when the user answers", async () => {
    const queue = new ApprovalQueue();
    const changes: ApprovalChange[] = [];
    queue.onDidChange((c) => changes.push(c));
    const { id, promise } = queue.enqueue("command", "rm -rf build", { agentId: "a1", callId: "c1" });
    expect(queue.pending()).toEqual([{ id, kind: "command", subject: "rm -rf build", agentId: "a1", callId: "c1" }]);
    expect(queue.decide(id, "allow")).toBe(true);
    await expect(promise).resolves.toBe("allow");
    expect(queue.pending()).toEqual([]);
    expect(changes.map((c) => c.type)).toEqual(["added", "removed"]);
  });

  it("a withdrawn approval resolves as cancelled, and a late click does nothing", async () => {
    const queue = new ApprovalQueue();
    const { id, promise } = queue.enqueue("write", "src/a.ts");
    expect(queue.cancelApproval(id)).toBe(true);
    await expect(promise).resolves.toBe("cancelled");
    expect(queue.decide(id, "allow")).toBe(false);
    expect(queue.cancelApproval(id)).toBe(false);
  });

  it("answers each approval on its own", async () => {
    const queue = new ApprovalQueue();
    const a = queue.enqueue("path", "/etc/hosts");
    const b = queue.enqueue("command", "make");
    queue.decide(b.id, "deny");
    queue.decide(a.id, "allow");
    await expect(Promise.all([a.promise, b.promise])).resolves.toEqual(["allow", "deny"]);
  });
});
