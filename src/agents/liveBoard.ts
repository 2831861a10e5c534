/**
 * What is live on each card beyond the transcript: the agent's MCP calls in flight (Cancel /
 * Complete) and the prompts waiting for the user (Arcadia's own approvals and Claude Code's
 * permission prompts). Each is put on the row of its transcript tool_use, matched by the
 * ToolUseMatcher from the transcript's `mcp__arcadia__*` tool_uses. Emits one small view per agent,
 * only when it really changed.
 */
import type { Approval } from "../core/mcp/approvalQueue";
import { ARCADIA_MCP_SERVER_NAME } from "../core/mcp/mcpConfigFile";
import type { TrackedCall } from "../core/mcp/toolCallTracker";
import { ToolUseMatcher } from "../core/mcp/toolUseMatcher";
import type { TranscriptEvent } from "../core/transcript/events";
import { visibleText } from "../core/util/visibleText";
import type { AgentLiveView, LiveCallView, PromptView } from "../shared/protocol";

export interface CallSource {
  calls(): TrackedCall[];
  onChange(listener: (change: { type: string; id?: string }) => void): () => void;
}

export interface ApprovalSource {
  pending(): Approval[];
  onChange(listener: () => void): () => void;
}

/** A Claude Code permission prompt relayed by the PermissionRequest hook. */
export interface PermissionPrompt {
  id: string;
  agentId: string;
  toolUseId?: string;
  subject: string;
  canAlwaysAllow: boolean;
}

export interface PermissionSource {
  pending(): PermissionPrompt[];
  onChange(listener: () => void): () => void;
}

const TOOL_PREFIX = `mcp__${ARCADIA_MCP_SERVER_NAME}__`;

const COMPLETE_HINTS: Record<string, string> = {
  execute_command: "Return the output so far (the command may keep running in its terminal)",
  write_file: "Accept the proposed change and write it",
  apply_diff: "Accept the proposed change and write it",
};
const DEFAULT_COMPLETE_HINT = "Finish now; this tool has no partial result (same as Cancel)";

export class LiveBoard {
  private readonly matcher = new ToolUseMatcher();
  private readonly sent = new Map<string, string>();
  private readonly listeners = new Set<(live: AgentLiveView) => void>();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly calls: CallSource,
    private readonly approvals: ApprovalSource,
    private readonly permissions?: PermissionSource,
  ) {
    this.unsubscribe.push(
      calls.onChange((change) => {
        if (change.type === "ended" && change.id) this.matcher.release(change.id);
        this.refresh();
      }),
      approvals.onChange(() => this.refresh()),
    );
    if (permissions) this.unsubscribe.push(permissions.onChange(() => this.refresh()));
  }

  onChange(listener: (live: AgentLiveView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Transcript events of an agent: its `mcp__arcadia__*` tool_uses are what calls match to. */
  transcriptEvents(agentId: string, events: readonly TranscriptEvent[]): void {
    let touched = false;
    for (const event of events) {
      if (event.kind === "toolStart" && event.name.startsWith(TOOL_PREFIX)) {
        this.matcher.toolUseStarted(agentId, event.id, event.name.slice(TOOL_PREFIX.length));
        touched = true;
      } else if (event.kind === "toolEnd") {
        this.matcher.toolUseEnded(agentId, event.id);
        touched = true;
      }
    }
    if (touched) this.refresh();
  }

  /** Every agent with something live (for a snapshot). */
  views(agentIds: readonly string[]): AgentLiveView[] {
    return agentIds.map((id) => this.view(id));
  }

  view(agentId: string): AgentLiveView {
    const calls = this.calls.calls().filter((c) => c.agentId === agentId);
    const toolUseOfCall = new Map<string, string | null>();
    const liveCalls: LiveCallView[] = calls.map((call) => {
      const toolUseId = this.matcher.match({ callId: call.id, tool: call.toolName, agentId, toolUseId: call.toolUseId }) ?? null;
      toolUseOfCall.set(call.id, toolUseId);
      return {
        callId: call.id,
        toolUseId,
        tool: call.toolName,
        display: visibleText(call.display),
        startedAt: call.startedAt,
        completeHint: COMPLETE_HINTS[call.toolName] ?? DEFAULT_COMPLETE_HINT,
      };
    });
    const prompts: PromptView[] = [
      ...this.approvals
        .pending()
        .filter((a) => a.agentId === agentId)
        .map((a) => ({
          id: a.id,
          kind: a.kind,
          // What is approved is all of this text: shown whole, nothing hidden in it.
          subject: visibleText(a.subject),
          toolUseId: (a.callId && toolUseOfCall.get(a.callId)) ?? null,
          canAlwaysAllow: false,
        })),
      // A write waits on its diff review: Allow / Deny on the row accept or reject the diff.
      ...calls
        .filter((c) => c.diffId !== undefined)
        .map((c) => ({ id: c.diffId as string, kind: "write" as const, subject: visibleText(c.display), toolUseId: toolUseOfCall.get(c.id) ?? null, canAlwaysAllow: false })),
      ...(this.permissions?.pending() ?? [])
        .filter((p) => p.agentId === agentId)
        .map((p) => ({ id: p.id, kind: "permission" as const, subject: p.subject, toolUseId: p.toolUseId ?? null, canAlwaysAllow: p.canAlwaysAllow })),
    ];
    return { agentId, calls: liveCalls, prompts };
  }

  /** The agent is gone: nothing of it is sent again. */
  forget(agentId: string): void {
    this.sent.delete(agentId);
  }

  dispose(): void {
    for (const off of this.unsubscribe) off();
    this.listeners.clear();
  }

  private refresh(): void {
    const agentIds = new Set<string>(this.sent.keys());
    for (const call of this.calls.calls()) if (call.agentId) agentIds.add(call.agentId);
    for (const approval of this.approvals.pending()) if (approval.agentId) agentIds.add(approval.agentId);
    for (const prompt of this.permissions?.pending() ?? []) agentIds.add(prompt.agentId);
    for (const agentId of agentIds) {
      const live = this.view(agentId);
      const json = JSON.stringify(live);
      if (this.sent.get(agentId) === json) continue;
      if (live.calls.length === 0 && live.prompts.length === 0) this.sent.delete(agentId);
      else this.sent.set(agentId, json);
      for (const listener of this.listeners) listener(live);
    }
  }
}
