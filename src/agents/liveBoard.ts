/**
 * What is live on each card beyond the transcript: the agent's MCP calls in flight (Cancel /
 * Complete) and the prompts waiting for the user (Arcadia's own approvals and Claude Code's
 * permission prompts). Each is put on the row of its transcript tool_use, matched by the
 * ToolUseMatcher from the transcript's `mcp__arcadia__*` tool_uses. Emits one small view per agent,
 * only when it really changed. It also keeps how long each call waited on its prompt (ToolWaits):
 * a call runs, and its time counts, from the moment it was allowed.
 */
import { isDeepStrictEqual } from "node:util";
import { leaveSandboxReason } from "../core/agentSandbox";
import type { Approval, TrackedCall } from "../core/mcp";
import { ToolUseMatcher } from "../core/mcp";
import { ARCADIA_TOOL_PREFIX } from "../core/server";
import type { TranscriptEvent } from "../core/transcript";
import { type Disposable, DisposableObject, Emitter, latch, visibleText } from "../core/util";
import type {
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
  WorktreeView,
} from "../shared/protocol";
import { ToolWaits } from "./toolWaits";

/** One agent's live facts, as the board sends them to the card store. */
export type AgentLiveView = LiveFacts & { agentId: string };

export interface CallSource {
  calls(): TrackedCall[];
  onDidChange(listener: (change: { type: string; id?: string }) => void): Disposable;
}

export interface ApprovalSource {
  pending(): Approval[];
  onDidChange(listener: () => void): Disposable;
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
  onDidChange(listener: () => void): Disposable;
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

/** Worktree agents' branch and changes (worktreeCards.ts). */
export interface WorktreeSource {
  worktree(agentId: string): WorktreeView | null;
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
  of(agentId: string): { id: string; toolUseId?: string; display: string; startedAt: number }[];
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

/** What a card shows beyond calls and prompts, each from its own source. */
export interface CardExtras {
  shared?: SharedFileSource;
  worktrees?: WorktreeSource;
  edits?: SessionEditSource;
  stillRunning?: StillRunningSource;
  reviews?: ReviewSource;
  races?: RaceSource;
}

export class LiveBoard extends DisposableObject {
  private readonly matcher = new ToolUseMatcher();
  /** How long each call waited on the user (prompts on its row), per agent. */
  readonly waits: ToolWaits;
  private readonly looked = this._register(new Emitter<AgentLiveView>());
  /** What each agent was last sent: a look passes on only what changed. */
  private readonly sent = this._register(latch<AgentLiveView>(this.looked.event, { key: (live) => live.agentId, equals: isDeepStrictEqual }));
  /** One agent's live view changed (sent only when it really did). */
  readonly onDidChange = this.sent.event;

  constructor(
    private readonly calls: CallSource,
    private readonly approvals: ApprovalSource,
    private readonly permissions?: PermissionSource,
    hooks?: HookToolSource,
    now: () => number = Date.now,
    private readonly extras: CardExtras = {},
  ) {
    super();
    this.waits = new ToolWaits(now);
    if (hooks) {
      this._register(
        hooks.onDidChange((agentId) => {
          for (const tool of hooks.tools(agentId)) if (tool.outcome !== undefined && tool.outcome !== "denied") this.waits.ran(agentId, tool.id);
        }),
      );
    }
    this._register(
      calls.onDidChange((change) => {
        if (change.type === "ended" && change.id) this.matcher.release(change.id);
        this.refresh();
      }),
    );
    this._register(approvals.onDidChange(() => this.refresh()));
    if (permissions) this._register(permissions.onDidChange(() => this.refresh()));
    const sources = [extras.shared, extras.worktrees, extras.edits, extras.stillRunning, extras.reviews, extras.races];
    for (const source of sources) if (source) this._register(source.onDidChange((agentIds) => this.refresh(agentIds)));
  }

  /** Transcript events of an agent: its `mcp__arcadia__*` tool_uses are what calls match to. */
  transcriptEvents(agentId: string, events: readonly TranscriptEvent[]): void {
    let touched = false;
    for (const event of events) {
      if (event.kind === "toolStart" && event.name.startsWith(ARCADIA_TOOL_PREFIX)) {
        this.matcher.toolUseStarted(agentId, event.id, event.name.slice(ARCADIA_TOOL_PREFIX.length));
        touched = true;
      } else if (event.kind === "toolEnd") {
        this.matcher.toolUseEnded(agentId, event.id);
        touched = true;
      } else if (event.kind === "prompt" && event.at !== undefined) {
        this.waits.turnStarted(agentId, event.at);
      }
    }
    if (touched) this.refresh();
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
      if (waitingCalls.has(call.callId)) continue;
      call.runningSince = (call.toolUseId !== null ? this.waits.allowedAt(agentId, call.toolUseId) : undefined) ?? call.startedAt;
    }
    const view: AgentLiveView = {
      agentId,
      calls: liveCalls,
      prompts,
      sharedFiles: this.extras.shared?.sharedFiles(agentId) ?? [],
      worktree: this.extras.worktrees?.worktree(agentId) ?? null,
      sessionEdits: this.extras.edits?.sessionEdits(agentId) ?? null,
      ...this.sessionFigures(agentId),
    };
    const stillRunning = this.stillRunning(agentId);
    if (stillRunning.length > 0) view.stillRunning = stillRunning;
    const reviewComments = this.extras.reviews?.reviewComments(agentId) ?? null;
    if (reviewComments) view.reviewComments = reviewComments;
    const race = this.extras.races?.race(agentId);
    if (race) view.race = race;
    return view;
  }

  /** The agent is gone: nothing of it is sent again. */
  forget(agentId: string): void {
    this.sent.forget(agentId);
    this.waits.forget(agentId);
  }

  /** `also`: agents that may have something live no other source lists (shared files). */
  private refresh(also: readonly string[] = []): void {
    const agentIds = new Set<string>([...this.sent.keys(), ...also]);
    for (const call of this.calls.calls()) if (call.agentId) agentIds.add(call.agentId);
    for (const approval of this.approvals.pending()) if (approval.agentId) agentIds.add(approval.agentId);
    for (const prompt of this.permissions?.pending() ?? []) agentIds.add(prompt.agentId);
    for (const agentId of agentIds) {
      let live = this.view(agentId);
      const asking = new Set(live.prompts.flatMap((p) => (p.toolUseId ? [p.toolUseId] : [])));
      // A prompt that opened or closed starts or ends its call's wait (and its running clock).
      if (this.waits.promptsOpen(agentId, asking)) live = this.view(agentId);
      this.looked.fire(live);
      // Nothing left on it: it is no longer looked at until a source names it again.
      if (isEmpty(live)) this.sent.forget(agentId);
    }
  }

  /** Commands its calls left running after Complete: on the row of the call that started each. */
  private stillRunning(agentId: string): StillRunningView[] {
    return (this.extras.stillRunning?.of(agentId) ?? []).map((c) => ({
      id: c.id,
      toolUseId: c.toolUseId ?? null,
      display: visibleText(c.display),
      startedAt: c.startedAt,
    }));
  }

  private sessionFigures(agentId: string): Pick<AgentLiveView, "usage" | "limit" | "history"> {
    const edits = this.extras.edits;
    if (!edits) return {};
    return { usage: edits?.usage?.(agentId) ?? null, limit: edits?.limit?.(agentId) ?? null, history: edits?.history?.(agentId) ?? [] };
  }
}

function isEmpty(live: AgentLiveView): boolean {
  const none = live.calls.length === 0 && live.prompts.length === 0 && live.sharedFiles.length === 0 && live.worktree === null && live.sessionEdits === null;
  return none && !live.usage && !live.limit && !live.history?.length && !live.stillRunning?.length && !live.reviewComments && !live.race;
}
