/**
 * The one owner of every card. It alone subscribes to every source — the agents (lifecycle, and a
 * touch keyed by agent when a transcript, status file, terminal or focus changed), the transcript
 * events the call matcher needs, the MCP call tracker, approvals, Claude Code's permission prompts,
 * the hook feed and the extras (shared files, worktrees, session figures, review comments, races,
 * commands left running) — each change keyed by the agents it concerns. It marks those agents
 * dirty and flushes at most once a frame (cardPace.ts: the first change after a quiet frame at the
 * next turn of the event loop, later ones at the frame's end): each dirty card is composed once,
 * from the agent's part and the board's live part, passed through one latch, and kept, so `cards()`
 * is cheap (and composes what is marked first: a reader never sees a card older than its sources).
 * A turn's end is a latch on status here. Data flows one way: sources → card store → views (panel,
 * status bar, notifications).
 */
import { isDeepStrictEqual } from "node:util";
import type { HookTool } from "../../core/hooks";
import { type Disposable, DisposableObject, Emitter, errorMessage, type Event, latch } from "../../core/util";
import type { AgentFacts, CardView } from "../../shared/protocol";
import type { CardLiveFacts } from "../agent/agent";
import type { AgentChange, AgentTouch, TranscriptEventsRead } from "../agent/agentRegistry";
import { oncePerFrame } from "./cardPace";
import type { AgentLiveView, LiveBoard, LiveChange } from "./liveBoard";

export interface CardAgents {
  /** Lifecycle: added, removed, permission prompt left. */
  onDidChange: Event<AgentChange>;
  /** An agent's part may have changed. */
  onDidTouch: Event<AgentTouch>;
  /** Transcript events as they are read (the board's call matcher and waits follow them). */
  onDidReadTranscript: Event<TranscriptEventsRead>;
  /** Every agent with a card, in launch order (saved agents still reconnecting after a reload included). */
  agentIds(): string[];
  /** One agent's part as it is now, with what is live on it. */
  view(agentId: string, live?: CardLiveFacts): AgentFacts | undefined;
  /** Its current session (for compaction, which the hooks tell per session). */
  agentInfo(agentId: string): { sessionId: string } | undefined;
}

/** What the hooks tell about an agent's calls and compaction. */
export interface CardHooks {
  tools(agentId: string): readonly HookTool[];
  isCompacting(agentId: string, sessionId: string): boolean;
  onDidChange: Event<string>;
}

export interface CardSources {
  agents: CardAgents;
  board: LiveBoard;
  hooks?: CardHooks;
  /** Whether the hooks' calls show on the rows (the `arcadia.liveToolsFromHooks` setting). */
  hooksShowTools?: () => boolean;
  /** Where a card that could not be composed is reported (default: console.error). */
  onError?: (message: string) => void;
  /** When a flush runs (default: at most once a frame, cardPace.ts; tests flush when they choose). */
  schedule?: (flush: () => void) => void;
}

/** The cards as they are now. */
export interface CardReader {
  cards(): CardView[];
  card(agentId: string): CardView | undefined;
}

/** What follows the cards: their changes, removals and turns' ends. */
export interface CardEvents {
  readonly onDidChangeCard: Event<CardView>;
  readonly onDidRemoveCard: Event<string>;
  readonly onDidFinishTurn: Event<CardView>;
}

export class CardStore extends DisposableObject implements CardEvents, CardReader {
  private readonly composed = this._register(new Emitter<CardView>());
  private readonly latest = this._register(latch<CardView>(this.composed.event, { key: (card) => card.id, equals: isDeepStrictEqual }));
  private readonly removed = this._register(new Emitter<string>());
  private readonly turnFinished = this._register(new Emitter<CardView>());
  /** The agents to compose at the next flush, each with whether its change may be news (not catching up). */
  private dirty = new Map<string, boolean>();
  private scheduled = false;
  /** A flush due after the store went (its frame's timer) does nothing. */
  private disposed = false;
  private readonly kept = new Map<string, CardView>();
  /** The status each card last had: a turn's end is active → waiting, told once. */
  private readonly statuses = new Map<string, CardView["status"]>();
  private readonly schedule: (flush: () => void) => void;
  /** Compositions so far (tests count them: one per dirty card per tick). */
  compositions = 0;

  /** A card changed (told only when it really did), or a new one appeared. */
  readonly onDidChangeCard = this.latest.event;
  readonly onDidRemoveCard = this.removed.event;
  /** An agent's turn ended (its card went from working to waiting), with the card as it is now. */
  readonly onDidFinishTurn = this.turnFinished.event;

  constructor(private readonly sources: CardSources) {
    super();
    this.schedule = sources.schedule ?? oncePerFrame();
    const { agents, board } = sources;
    const { calls, approvals, permissions, extras = {} } = board.inputs;
    this._register(agents.onDidChange((change) => this.agentChanged(change)));
    this._register(agents.onDidTouch(({ agentId, news }) => this.mark(agentId, news)));
    this._register(
      agents.onDidReadTranscript(({ agentId, events }) => {
        board.transcriptEvents(agentId, events);
        // Not news by itself: the agent's own touch says whether it catches up.
        this.mark(agentId, false);
      }),
    );
    this._register(
      calls.onDidChange((change) => {
        if (change.type === "ended" && change.id) board.callEnded(change.id);
        this.markLive(change);
      }),
    );
    this._register(approvals.onDidChange((change) => this.markLive(change)));
    if (permissions) this._register(permissions.onDidChange((change) => this.markLive(change)));
    // One subscription to the hook feed, whichever part was given it (the card's rows, the board's waits).
    const hooks = sources.hooks ?? board.inputs.hooks;
    if (hooks) {
      this._register(
        hooks.onDidChange((agentId) => {
          board.hooksRan(agentId);
          this.mark(agentId);
        }),
      );
    }
    const keyed: ({ onDidChange(listener: (agentIds: string[]) => void): Disposable } | undefined)[] = [
      extras.shared,
      extras.worktrees,
      extras.edits,
      extras.stillRunning,
      extras.reviews,
      extras.races,
      extras.budget,
    ];
    for (const source of keyed) if (source) this._register(source.onDidChange((agentIds) => agentIds.forEach((id) => this.mark(id))));
  }

  /**
   * Every card now, in launch order: what the panel paints first and what the status bar counts.
   * What is marked is composed first, so what is painted is true now; a card never told (none
   * should be) is composed too, never left out: the panel would paint "no agents yet".
   */
  cards(): CardView[] {
    if (this.dirty.size > 0) this.flush();
    return this.sources.agents.agentIds().flatMap((id) => this.kept.get(id) ?? this.keep(id) ?? []);
  }

  /** One card now. */
  card(agentId: string): CardView | undefined {
    if (this.dirty.has(agentId)) this.flush();
    return this.kept.get(agentId) ?? this.keep(agentId);
  }

  private agentChanged(change: AgentChange): void {
    if (change.type === "added") this.mark(change.id);
    else if (change.type === "removed") {
      this.dirty.delete(change.id);
      this.kept.delete(change.id);
      this.statuses.delete(change.id);
      this.latest.forget(change.id);
      this.sources.board.forget(change.id);
      this.removed.fire(change.id);
    }
  }

  /**
   * A call, an approval or a permission prompt changed: the agent it belongs to (the change names it),
   * or for one gone, the card that showed it. A card's live part reads only its own agent's items,
   * so no other card can change: at fifty agents, composing every card with something live at each
   * change was half of all compositions. A change that names neither (a source that does not say):
   * the agents with something live now, and those whose card showed something.
   */
  private markLive(change: LiveChange | void): void {
    const item = change ? (change.call ?? change.approval ?? change.request) : undefined;
    if (item?.agentId !== undefined) return this.mark(item.agentId);
    const gone = change ? change.id : undefined;
    if (gone !== undefined && item === undefined) {
      const shownOn = this.cardShowing(gone);
      if (shownOn !== undefined) this.mark(shownOn);
      return;
    }
    for (const id of this.sources.board.agentsWithSomethingLive()) this.mark(id);
    for (const [id, card] of this.kept) if (card.calls.length > 0 || card.prompts.length > 0 || card.stillRunning?.length) this.mark(id);
  }

  /** The agent whose card shows the call or prompt `id` (a call's, an approval's, a diff's), if one does. */
  private cardShowing(id: string): string | undefined {
    for (const [agentId, card] of this.kept) {
      if (card.calls.some((c) => c.callId === id) || card.prompts.some((p) => p.id === id)) return agentId;
    }
    return undefined;
  }

  private mark(agentId: string, news = true): void {
    this.dirty.set(agentId, news || (this.dirty.get(agentId) ?? false));
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }

  override dispose(): void {
    this.disposed = true;
    super.dispose();
  }

  private flush(): void {
    if (this.disposed) return;
    this.scheduled = false;
    const dirty = this.dirty;
    this.dirty = new Map();
    for (const [agentId, news] of dirty) {
      const card = this.composeSafely(agentId);
      if (!card) continue;
      const before = this.statuses.get(agentId);
      this.statuses.set(agentId, card.status);
      this.composed.fire(card);
      if (news && before === "active" && card.status === "waiting") this.turnFinished.fire(card);
    }
  }

  /** One card that cannot be composed (a bug) is reported and skipped: the others of the tick still go out. */
  private composeSafely(agentId: string): CardView | undefined {
    try {
      return this.keep(agentId);
    } catch (err) {
      (this.sources.onError ?? console.error)(`the card of ${agentId} could not be composed: ${errorMessage(err)}`);
      return undefined;
    }
  }

  /** Composes the card from both parts as they are now, and keeps it. */
  private keep(agentId: string): CardView | undefined {
    const { agents, board } = this.sources;
    const live = board.view(agentId);
    const facts = agents.view(agentId, this.cardLive(agentId, live));
    if (!facts) return undefined;
    this.compositions++;
    const card = compose(facts, live);
    this.kept.set(agentId, card);
    if (!this.statuses.has(agentId)) this.statuses.set(agentId, card.status);
    return card;
  }

  /** What the agent's own rows and status need of the live part: hook rows, waits, compaction, prompts. */
  private cardLive(agentId: string, live: AgentLiveView): CardLiveFacts {
    const { hooks, board, hooksShowTools } = this.sources;
    const sessionId = this.sources.agents.agentInfo(agentId)?.sessionId;
    return {
      hookTools: hooks && (hooksShowTools?.() ?? true) ? hooks.tools(agentId) : [],
      waits: board.waits.of(agentId),
      compacting: hooks !== undefined && sessionId !== undefined && hooks.isCompacting(agentId, sessionId),
      promptKinds: live.prompts.map((p) => p.kind),
    };
  }
}

function compose(facts: AgentFacts, live: AgentLiveView): CardView {
  const { agentId: _agentId, ...liveFacts } = live;
  return { ...facts, ...liveFacts };
}
