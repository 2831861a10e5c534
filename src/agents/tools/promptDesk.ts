/**
 * Where an answer to a prompt goes. The card shows three kinds of prompt under one id space:
 * Arcadia's own approvals (commands, paths: the ApprovalQueue), the diff of a write waiting for
 * review (its id is the call's `diffId`), and Claude Code's permission prompts (the
 * PermissionBroker). The panel and the notifications only know the id; this finds its owner.
 */
import type { ApprovalQueue, ToolCallTracker } from "../../core/mcp";
import type { PermissionBroker } from "../../core/hooks";
import type { Log } from "../ports";

export type PromptAnswer = "allow" | "deny" | "alwaysAllow";

export interface PromptDeskDeps {
  approvals: Pick<ApprovalQueue, "decide" | "pending">;
  tracker: Pick<ToolCallTracker, "calls">;
  permissions: Pick<PermissionBroker, "decide" | "pending">;
  diffs: { accept(id: string): void; reject(id: string): void; reveal(id: string): void };
  focusAgent(agentId: string): void;
  log: Pick<Log, "info">;
}

export class PromptDesk {
  constructor(private readonly deps: PromptDeskDeps) {}

  /** An answer from the panel or a notification. A late one (the prompt already went) is logged, never applied elsewhere. */
  answer(id: string, decision: PromptAnswer): void {
    const { approvals, permissions, diffs, log } = this.deps;
    // Arcadia's approvals have no "always": it allows this one call.
    if (approvals.decide(id, decision === "deny" ? "deny" : "allow")) return;
    if (this.isDiff(id)) {
      if (decision === "deny") diffs.reject(id);
      else diffs.accept(id);
      return;
    }
    if (!permissions.decide(id, decision)) log.info(`prompt ${id} was already answered (in the terminal or elsewhere); the late answer is ignored`);
  }

  /** "Show terminal" / "Show diff": what lets the user look closer before answering. */
  reveal(id: string): void {
    const { approvals, permissions, diffs, focusAgent } = this.deps;
    const permission = permissions.pending().find((p) => p.id === id);
    if (permission) return focusAgent(permission.agentId);
    if (this.isDiff(id)) return diffs.reveal(id);
    const approval = approvals.pending().find((a) => a.id === id);
    if (approval?.agentId) focusAgent(approval.agentId);
  }

  private isDiff(id: string): boolean {
    return this.deps.tracker.calls().some((c) => c.diffId === id);
  }
}
