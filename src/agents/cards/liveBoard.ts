/**
 * What is live on each card beyond the transcript: the agent's MCP calls in flight (Cancel /
 * Complete) and the prompts waiting for the user (Arcadia's own approvals and Claude Code's
 * permission prompts). Each is put on the row of its transcript tool_use, matched by the
 * ToolUseMatcher from the transcript's `mcp__arcadia__*` tool_uses. A function of its inputs (the
 * sources below, the matcher and the waits): it has no emitter and no latch; the card store asks
 * for an agent's view when one of those inputs names the agent. It also keeps how long each call
 * waited on its prompt (ToolWaits): a call runs, and its time counts, from the moment it was allowed.
 */
import { leaveSandboxReason } from "../../core/agentSandbox";
import type { Approval, TrackedCall } from "../../core/mcp";
import { ToolUseMatcher } from "../../core/mcp";
import { ARCADIA_TOOL_PREFIX } from "../../core/toolDeclarations";
import type { TranscriptEvent } from "../../core/transcript";
import { type Disposable, visibleText } from "../../core/util";
import type {
  BudgetView,
  LiveCallView,
  LiveFacts,
  PromptView,
  ReviewCommentsView,
  RaceTagView,
  SessionEditsView,
  SessionUsageView,
  SharedFileView,
  StillRunningView,
  TurnSummaryView,
} from "../../shared/protocol";
import { ToolWaits } from "./toolWaits";

/** One agent's live facts, as the board gives them to the card store. */
export type AgentLiveView = LiveFacts & { agentId: string };

/** A change of a call, approval or permission prompt: the item with its agent, or the id of one gone (else: any agent). */
export type LiveChange = { type: string; id?: string } & Partial<Record<"call" | "approval" | "request", { agentId?: string }>>;

export interface CallSource {
  calls(): TrackedCall[];
  onDidChange(listener: (change: { type: string; id?: string }) => void): Disposable;
}

export interface ApprovalSource {
  pending(): Approval[];
  onDidChange(listener: (change: LiveChange | void) => void): Disposable;
}

/** A Claude Code permission prompt relayed by the PermissionRequest hook. */
export interface PermissionPrompt {
  id: string;
  agentId: string;
  toolUseId?: string;
  subject: string;
  canAlwaysAllow: boolean;
  /** The tool and its input, as the hook gave them (a Bash call asking to leave the sandbox gets its reason from them). */
  toolName?: string;
  toolInput?: unknown;
}

export interface PermissionSource {
  pending(): PermissionPrompt[];
  onDidChange(listener: (change: LiveChange | void) => void): Disposable;
}

/** What the hooks say about calls: told when one ran (PostToolUse / PostToolUseFailure). */
export interface HookToolSource {
  tools(agentId: string): readonly { id: string; outcome?: string }[];
  onDidChange(listener: (agentId: string) => void): Disposable;
}

/** Files an agent shares with others (core/collisions), already shown as the card says them. */
export interface SharedFileSource {
  sharedFiles(agentId: string): SharedFileView[];
  /** Why the user is asked about this call, when the collision guard asked. */
  askedReason(agentId: string, toolUseId: string): string | undefined;
  /** The agents whose shared files changed. */
  onDidChange(listener: (agentIds: string[]) => void): Disposable;
}

/**
 * What the agent's folder says on its card (worktreeCards.ts): the fields it owns, whole. A new
 * field of that source is the source's and the card model's alone: the board spreads what it gives.
 */
export type FolderFacts = Pick<LiveFacts, "worktree"> & Partial<LiveFacts>;

/** Worktree agents' branch and changes, and what else the agent's folder says (worktreeCards.ts). */
export interface WorktreeSource {
  folderFacts(agentId: string): FolderFacts;
  /** The agents whose worktree view changed. */
  onDidChange(listener: (agentIds: string[]) => void): Disposable;
}

/** What each agent's session amounts to (sessionCards.ts): files changed, usage, a limit, earlier turns. */
export interface SessionEditSource {
  sessionEdits(agentId: string): SessionEditsView | null;
  usage?(agentId: string): SessionUsageView | null;
  limit?(agentId: string): string | null;
  history?(agentId: string): TurnSummaryView[];
  onDidChange(listener: (agentIds: string[]) => void): Disposable;
}

/** Commands calls left running after Complete (core/mcp/stillRunningCommands.ts). */
export interface StillRunningSource {
  of(agentId: string): { id: string; callId?: string; toolUseId?: string; display: string; startedAt: number }[];
  onDidChange(listener: (agentIds: string[]) => void): Disposable;
}

/** The reviewer's comments on each agent's changes (reviewDesk.ts). */
export interface ReviewSource {
  reviewComments(agentId: string): ReviewCommentsView | null;
  onDidChange(listener: (agentIds: string[]) => void): Disposable;
}

/** The race a card runs in (raceBook.ts). */
export interface RaceSource {
  race(agentId: string): RaceTagView | null;
  onDidChange(listener: (agentIds: string[]) => void): Disposable;
}

/** Each agent's budget: its cap, spend, burn rate, a pause or the sub-agent brake (budgetBook.ts). */
export interface BudgetSource {
  budgetView(agentId: string): BudgetView | null;
  onDidChange(listener: (agentIds: string[]) => void): Disposable;
}

/** What a card shows beyond calls and prompts, each from its own source. */
export interface CardExtras {
  shared?: SharedFileSource;
  worktrees?: WorktreeSource;
  edits?: SessionEditSource;
  stillRunning?: StillRunningSource;
  reviews?: ReviewSource;
  races?: RaceSource;
  budget?: BudgetSource;
}

/** Everything the board reads; the card store subscribes to each source's changes, keyed by agent. */
export interface LiveInputs {
  calls: CallSource;
  approvals: ApprovalSource;
  permissions?: PermissionSource;
  hooks?: HookToolSource;
  extras?: CardExtras;
}

/** Calls whose wait for the user is remembered (far more than are ever in flight at once). */
const MAX_CALL_WAITS = 512;

export class LiveBoard {
  private readonly matcher = new ToolUseMatcher();
  /** How long each call waited on the user (prompts on its row), per agent. */
  readonly waits: ToolWaits;
  private readonly calls: CallSource;
  private readonly approvals: ApprovalSource;
  private readonly permissions: PermissionSource | undefined;
  private readonly extras: CardExtras;
  /** When each command left running began to run (its call allowed), by command id: live state, only of commands shown. */
  private readonly ranFrom = new Map<string, { agentId: string; since: number }>();
  /** Calls seen waiting for an approval or a diff, then when that wait ended, by call id: a call with no row (no tool_use) still runs from then. */
  private readonly callWaits = new Map<string, { until?: number }>();
  private readonly now: () => number;

  constructor(
    readonly inputs: LiveInputs,
    now: () => number = Date.now,
  ) {
    this.waits = new ToolWaits(now);
    this.now = now;
    this.calls = inputs.calls;
    this.approvals = inputs.approvals;
    this.permissions = inputs.permissions;
    this.extras = inputs.extras ?? {};
  }

  /** The hooks said calls of `agentId` ran: a rejection after that is an interrupt, not a denial. */
  hooksRan(agentId: string): void {
    for (const tool of this.inputs.hooks?.tools(agentId) ?? []) if (tool.outcome !== undefined && tool.outcome !== "denied") this.waits.ran(agentId, tool.id);
  }

  /** A call ended: its tool_use may be matched by another call. */
  callEnded(callId: string): void {
    this.matcher.release(callId);
  }

  /** Transcript events of an agent: its `mcp__arcadia__*` tool_uses are what calls match to. */
  transcriptEvents(agentId: string, events: readonly TranscriptEvent[]): void {
    for (const event of events) {
      if (event.kind === "toolStart" && event.name.startsWith(ARCADIA_TOOL_PREFIX)) {
        this.matcher.toolUseStarted(agentId, event.id, event.name.slice(ARCADIA_TOOL_PREFIX.length));
      } else if (event.kind === "toolEnd") {
        this.matcher.toolUseEnded(agentId, event.id);
      } else if (event.kind === "prompt" && event.at !== undefined) {
        this.waits.turnStarted(agentId, event.at);
      }
    }
  }

  /** The agents with a call or a prompt now (a change of those sources may concern any of them). */
  agentsWithSomethingLive(): Set<string> {
    const agentIds = new Set<string>();
    for (const call of this.calls.calls()) if (call.agentId) agentIds.add(call.agentId);
    for (const approval of this.approvals.pending()) if (approval.agentId) agentIds.add(approval.agentId);
    for (const prompt of this.permissions?.pending() ?? []) agentIds.add(prompt.agentId);
    return agentIds;
  }

  /**
   * One agent's live facts now. A prompt that opened or closed starts or ends its call's wait (and
   * its running clock), so the view is taken again when the waits moved.
   */
  view(agentId: string): AgentLiveView {
    const live = this.look(agentId);
    const asking = new Set(live.prompts.flatMap((p) => (p.toolUseId ? [p.toolUseId] : [])));
    return this.waits.promptsOpen(agentId, asking) ? this.look(agentId) : live;
  }

  private look(agentId: string): AgentLiveView {
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
        runningSince: null as number | null,
        // What the call's own tool declared (ToolSpec.complete), or the generic hint.
        completeHint: call.completeHint,
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
          ...(a.reason ? { reason: visibleText(a.reason) } : {}),
          toolUseId: (a.callId && toolUseOfCall.get(a.callId)) ?? null,
          canAlwaysAllow: false,
          ...(a.wording ? { wording: a.wording } : {}),
        })),
      // A write waits on its diff review: Allow / Deny on the row accept or reject the diff.
      ...calls
        .filter((c) => c.diffId !== undefined)
        .map((c) => ({
          id: c.diffId as string,
          kind: "write" as const,
          subject: visibleText(c.display),
          toolUseId: toolUseOfCall.get(c.id) ?? null,
          canAlwaysAllow: false,
        })),
      ...(this.permissions?.pending() ?? [])
        .filter((p) => p.agentId === agentId)
        .map((p) => {
          const reason = (p.toolUseId ? this.extras.shared?.askedReason(agentId, p.toolUseId) : undefined) ?? leaveSandboxReason(p.toolName ?? "", p.toolInput);
          return {
            id: p.id,
            kind: "permission" as const,
            subject: p.subject,
            ...(reason ? { reason: visibleText(reason) } : {}),
            toolUseId: p.toolUseId ?? null,
            canAlwaysAllow: p.canAlwaysAllow,
          };
        }),
    ];
    // A call runs from the moment its approval (or diff) was answered; until then, no clock.
    const waitingCalls = new Set<string>(calls.filter((c) => c.diffId !== undefined).map((c) => c.id));
    for (const approval of this.approvals.pending()) if (approval.agentId === agentId && approval.callId) waitingCalls.add(approval.callId);
    for (const call of liveCalls) {
      if (this.callWaited(call.callId, waitingCalls.has(call.callId))) continue;
      const rowAllowedAt = call.toolUseId !== null ? this.waits.allowedAt(agentId, call.toolUseId) : undefined;
      call.runningSince = rowAllowedAt ?? this.callWaits.get(call.callId)?.until ?? call.startedAt;
    }
    const view: AgentLiveView = {
      agentId,
      calls: liveCalls,
      prompts,
      sharedFiles: this.extras.shared?.sharedFiles(agentId) ?? [],
      worktree: null,
      ...this.extras.worktrees?.folderFacts(agentId),
      sessionEdits: this.extras.edits?.sessionEdits(agentId) ?? null,
      ...this.sessionFigures(agentId),
    };
    const stillRunning = this.stillRunning(agentId);
    if (stillRunning.length > 0) view.stillRunning = stillRunning;
    const reviewComments = this.extras.reviews?.reviewComments(agentId) ?? null;
    if (reviewComments) view.reviewComments = reviewComments;
    const race = this.extras.races?.race(agentId);
    if (race) view.race = race;
    const budget = this.extras.budget?.budgetView(agentId);
    if (budget) view.budget = budget;
    return view;
  }

  /** Notes that the call waits now (true: no clock yet), or the moment its wait ended. Bounded: the oldest go first. */
  private callWaited(callId: string, waitingNow: boolean): boolean {
    const wait = this.callWaits.get(callId);
    if (waitingNow) {
      if (!wait) {
        if (this.callWaits.size >= MAX_CALL_WAITS) this.callWaits.delete(this.callWaits.keys().next().value as string);
        this.callWaits.set(callId, {});
      } else delete wait.until;
      return true;
    }
    if (wait && wait.until === undefined) wait.until = this.now();
    return false;
  }

  /** The agent is gone: its waits go with it. */
  forget(agentId: string): void {
    this.waits.forget(agentId);
    for (const [id, ran] of this.ranFrom) if (ran.agentId === agentId) this.ranFrom.delete(id);
  }

  /**
   * Commands its calls left running after Complete: on the row of the call that started each. Each
   * has run since its call was allowed, not since it asked (the wait for the user is no running
   * time): taken when it is first shown, while its call's wait is still known, and kept.
   */
  private stillRunning(agentId: string): StillRunningView[] {
    const commands = this.extras.stillRunning?.of(agentId) ?? [];
    for (const [id, ran] of this.ranFrom) if (ran.agentId === agentId && !commands.some((c) => c.id === id)) this.ranFrom.delete(id);
    return commands.map((c) => {
      let ran = this.ranFrom.get(c.id);
      if (!ran) {
        const allowedAt =
          (c.toolUseId !== undefined ? this.waits.allowedAt(agentId, c.toolUseId) : undefined) ??
          (c.callId !== undefined ? this.callWaits.get(c.callId)?.until : undefined);
        ran = { agentId, since: allowedAt ?? c.startedAt };
        this.ranFrom.set(c.id, ran);
      }
      return { id: c.id, toolUseId: c.toolUseId ?? null, display: visibleText(c.display), startedAt: ran.since };
    });
  }

  private sessionFigures(agentId: string): Pick<AgentLiveView, "usage" | "limit" | "history"> {
    const edits = this.extras.edits;
    if (!edits) return {};
    return { usage: edits?.usage?.(agentId) ?? null, limit: edits?.limit?.(agentId) ?? null, history: edits?.history?.(agentId) ?? [] };
  }
}
