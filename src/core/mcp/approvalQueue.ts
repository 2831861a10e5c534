/**
 * Approvals the user gives from the panel (one queue per window): commands to run, paths outside
 * the workspace, writes. `enqueue` returns the id at once (so a tracked call can link it) and a
 * promise of the decision; `cancelApproval` withdraws one (a force-finished call no longer waits).
 */
import { DisposableObject, Emitter } from "../util";

export type ApprovalKind = "command" | "path" | "write";
export type ApprovalDecision = "allow" | "deny" | "cancelled";

/**
 * How the card puts a question whose answers are not "Allow / Deny" (what a command left behind:
 * Remove / Keep). The answers stay allow and deny; only their words and which one is the harmless
 * default (the emphasized button, first) travel with the approval.
 */
export interface ApprovalWording {
  /** Before the subject, e.g. "Left behind by its command:". */
  title: string;
  /** The button that answers allow, e.g. "Remove". */
  allow: string;
  /** The button that answers deny, e.g. "Keep". */
  deny: string;
  /** The answer that changes nothing the user would miss: shown first, as the primary button. */
  harmless: "allow" | "deny";
}

export interface Approval {
  id: string;
  kind: ApprovalKind;
  /** What is asked, in one line: the command, the path, the file. Exactly what Allow acts on. */
  subject: string;
  /** Why the user is asked, when the policy can say (e.g. "its argument `link` leads to /etc/x, outside the workspace"). */
  reason?: string;
  agentId?: string;
  callId?: string;
  /** Its own words for the question and its two answers (default: the kind's title, Allow / Deny). */
  wording?: ApprovalWording;
}

interface Entry {
  approval: Approval;
  resolve: (decision: ApprovalDecision) => void;
}

export type ApprovalChange = { type: "added"; approval: Approval } | { type: "removed"; id: string; decision: ApprovalDecision };

/** Same as the tracker's calls per agent: each call waits on at most one approval, so the call cap
 * normally stops a flood first; this one holds for approvals asked outside a tracked call too. */
export const DEFAULT_MAX_PENDING_APPROVALS_PER_AGENT = 64;

export class ApprovalQueue extends DisposableObject {
  private readonly waiting = new Map<string, Entry>();
  private readonly perAgent = new Map<string, number>();
  private readonly changed = this._register(new Emitter<ApprovalChange>());
  /** An approval was added, or answered / withdrawn. */
  readonly onDidChange = this.changed.event;
  private nextId = 1;

  constructor(private readonly maxPendingPerAgent = DEFAULT_MAX_PENDING_APPROVALS_PER_AGENT) {
    super();
  }

  /** Past the agent's cap the approval is never shown: it is "cancelled" at once. */
  enqueue(
    kind: ApprovalKind,
    subject: string,
    links: { agentId?: string; callId?: string; reason?: string; wording?: ApprovalWording } = {},
  ): { id: string; promise: Promise<ApprovalDecision> } {
    const id = `approval-${this.nextId++}`;
    const { agentId } = links;
    if (agentId !== undefined) {
      const count = this.perAgent.get(agentId) ?? 0;
      if (count >= this.maxPendingPerAgent) return { id, promise: Promise.resolve("cancelled") };
      this.perAgent.set(agentId, count + 1);
    }
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

  private settle(id: string, decision: ApprovalDecision): boolean {
    const entry = this.waiting.get(id);
    if (!entry) return false;
    this.waiting.delete(id);
    const { agentId } = entry.approval;
    if (agentId !== undefined) {
      const left = (this.perAgent.get(agentId) ?? 1) - 1;
      if (left > 0) this.perAgent.set(agentId, left);
      else this.perAgent.delete(agentId);
    }
    entry.resolve(decision);
    this.emit({ type: "removed", id, decision });
    return true;
  }

  private emit(change: ApprovalChange): void {
    this.changed.fire(change);
  }
}
