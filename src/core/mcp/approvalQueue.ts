/**
 * Approvals the user gives from the panel (one queue per window): commands to run, paths outside
 * the workspace, writes. `enqueue` returns the id at once (so a tracked call can link it) and a
 * promise of the decision; `cancelApproval` withdraws one (a force-finished call no longer waits).
 */

export type ApprovalKind = "command" | "path" | "write";
export type ApprovalDecision = "allow" | "deny" | "cancelled";

export interface Approval {
  id: string;
  kind: ApprovalKind;
  /** What is asked, in one line: the command, the path, the file. */
  subject: string;
  agentId?: string;
  callId?: string;
}

interface Entry {
  approval: Approval;
  resolve: (decision: ApprovalDecision) => void;
}

export type ApprovalChange = { type: "added"; approval: Approval } | { type: "removed"; id: string; decision: ApprovalDecision };

export class ApprovalQueue {
  private readonly waiting = new Map<string, Entry>();
  private readonly listeners = new Set<(change: ApprovalChange) => void>();
  private nextId = 1;

  enqueue(kind: ApprovalKind, subject: string, links: { agentId?: string; callId?: string } = {}): { id: string; promise: Promise<ApprovalDecision> } {
    const id = `approval-${this.nextId++}`;
    const approval: Approval = { id, kind, subject, ...links };
    const promise = new Promise<ApprovalDecision>((resolve) => this.waiting.set(id, { approval, resolve }));
    this.emit({ type: "added", approval: { ...approval } });
    return { id, promise };
  }

  pending(): Approval[] {
    return [...this.waiting.values()].map((e) => ({ ...e.approval }));
  }

  /** The user answered. False if it was already answered or withdrawn (a late click is harmless). */
  decide(id: string, decision: "allow" | "deny"): boolean {
    return this.settle(id, decision);
  }

  cancelApproval(id: string): boolean {
    return this.settle(id, "cancelled");
  }

  onChange(listener: (change: ApprovalChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private settle(id: string, decision: ApprovalDecision): boolean {
    const entry = this.waiting.get(id);
    if (!entry) return false;
    this.waiting.delete(id);
    entry.resolve(decision);
    this.emit({ type: "removed", id, decision });
    return true;
  }

  private emit(change: ApprovalChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
