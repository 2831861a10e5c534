/**
 * Review comments between the reviewer and each agent: drafts made on the diff's lines, sent as
 * one message typed at the agent's prompt when it is idle (queued while it works, "will send when
 * idle"), and, once the turn that message started is over, each thread addressed or not by
 * whether its lines changed. One agent's comments go only to that agent's own terminal. A closed
 * agent keeps its threads (nothing can be sent) and the reviewer is told how many drafts stay.
 * VS Code stays outside: the comment UI (src/vscode/review) calls in, files and terminals come
 * through the deps, so this is tested in plain Node.
 */
import { relative, isAbsolute, sep } from "node:path";
import {
  type AgentReview,
  anchorAt,
  AnswerWatch,
  locate,
  type Located,
  type OutgoingThread,
  ReviewBook,
  reviewMessage,
  type ReviewThread,
  splitLines,
  threadStatus,
} from "../../core/review";
import { combinedDisposable, countOf, type Disposable, DisposableObject, Emitter, errorMessage, type Event } from "../../core/util";
import type { AgentFacts, ReviewCommentsView } from "../../shared/protocol";
import type { AgentChange, TranscriptEventsRead } from "../agent/agentRegistry";
import type { CardEvents, CardReader } from "../cards/cardStore";
import { atClaudePrompt } from "../launch/agentReadiness";
import type { Log, TerminalHandle } from "../ports";

export interface ReviewDeskDeps {
  agents: {
    agentInfo(agentId: string): { name: string; cwd: string; terminal: TerminalHandle } | undefined;
    onDidChange: Event<AgentChange>;
    onDidReadTranscript: Event<TranscriptEventsRead>;
  };
  /** A file's text, or null when it is gone; a rejection (unreadable now) leaves its threads as they are. */
  readFile(path: string): Promise<string | null>;
  /** Keeps the threads (workspace state): they survive a window reload. */
  save(reviews: AgentReview[]): Promise<void>;
  saved?: readonly AgentReview[];
  log: Log;
  now?: () => number;
  /** The agent's turn after a send is over and its threads say addressed or not (Review opens again). */
  onAnswered?(agentId: string): void;
  /** An agent was closed with drafts not sent: they stay, the reviewer is told. */
  onClosedWithDrafts?(agentId: string, name: string, drafts: number): void;
  /**
   * A queued send is due (the agent is idle again): true to type it now. Text the user left in the
   * CLI's input box cannot be seen from here, and typed comments would be joined onto it into one
   * prompt; so the user says when (absent: typed at once).
   */
  confirmQueuedSend?(agentId: string, name: string, comments: number): Promise<boolean>;
}

/** `failed`: typing at its prompt failed (logged); the comments stay drafts. */
export type SendOutcome = "sent" | "queued" | "nothing" | "closed" | "failed";

/** The card's idle: its turn is over and nothing asks the user; typing now reaches the CLI's prompt. */
const isIdle = atClaudePrompt;

export class ReviewDesk extends DisposableObject {
  readonly book: ReviewBook;
  private readonly watch = new AnswerWatch();
  private readonly delivering = new Set<string>();
  /** Agents whose queued send the user is being asked about, or said "not now" to while they stay idle. */
  private readonly asked = new Set<string>();
  private readonly changed = this._register(new Emitter<string[]>());
  /** The agents whose review view changed (for the live board). */
  readonly onDidChange = this.changed.event;
  private readonly now: () => number;
  private saving: Promise<void> = Promise.resolve();
  /** The cards, once followed (followCards). */
  private cards: CardReader | undefined;

  constructor(private readonly deps: ReviewDeskDeps) {
    super();
    this.now = deps.now ?? Date.now;
    this.book = this._register(new ReviewBook(deps.saved));
    // Sent before a window reload and not answered yet: the restored card's reading of its current
    // turn (or the next one) is the answer.
    for (const review of this.book.all()) {
      const sentAt = Math.max(0, ...this.book.awaiting(review.agentId).flatMap((t) => t.notes.map((n) => n.sentAt ?? 0)));
      if (sentAt > 0) this.watch.sent(review.agentId, sentAt);
    }
    this._register(
      this.book.onDidChange((agentId) => {
        this.changed.fire([agentId]);
        const reviews = this.book.saved();
        this.saving = this.saving.then(() => deps.save(reviews)).catch((err: unknown) => deps.log.warn(`review comments not saved: ${errorMessage(err)}`));
      }),
    );
    this._register(deps.agents.onDidChange((change) => change.type === "removed" && this.agentRemoved(change.id)));
    this._register(
      deps.agents.onDidReadTranscript(({ agentId, events }) => {
        if (this.watch.events(agentId, events)) void this.answer(agentId);
      }),
    );
  }

  /** A new thread on lines `start`..`end` (0-based) of `file`, whose text is `text` now. */
  comment(agentId: string, file: string, text: string, start: number, end: number, body: string): ReviewThread | undefined {
    const agent = this.deps.agents.agentInfo(agentId);
    const name = agent?.name ?? this.book.review(agentId)?.agentName;
    if (!name) return undefined;
    return this.book.addThread({ id: agentId, name }, file, anchorAt(splitLines(text), start, end), body, this.now());
  }

  /** Another comment on a thread, about its lines as they read now. */
  reply(agentId: string, threadId: string, text: string | undefined, body: string): boolean {
    const thread = this.book.thread(agentId, threadId);
    if (!thread) return false;
    const size = thread.anchor.lines.length;
    const anchor = text === undefined ? undefined : anchorAt(splitLines(text), thread.anchor.line, thread.anchor.line + size - 1);
    return this.book.reply(agentId, threadId, body, this.now(), anchor) !== undefined;
  }

  /** "Send N comments": now when the agent is idle at its prompt, else once it is. */
  async send(agentId: string): Promise<SendOutcome> {
    if (this.book.outgoing(agentId).length === 0) return "nothing";
    // Gone: closed, or no card at all. A card still reconnecting after a reload is not idle: queued.
    const view = this.agentView(agentId);
    if (this.book.review(agentId)?.closed || !view) return "closed";
    if (!isIdle(view) || !this.deps.agents.agentInfo(agentId)) {
      this.book.queue(agentId);
      return "queued";
    }
    return (await this.deliver(agentId, false, true)) ? "sent" : "failed";
  }

  /** Resolves once every change so far is saved (or failed to be, with a log line). */
  whenSaved(): Promise<void> {
    return this.saving;
  }

  /** What the card shows: "3 review comments — 2 addressed", "will send when idle". */
  reviewComments(agentId: string): ReviewCommentsView | null {
    const threads = this.book.threads(agentId).filter((t) => !t.resolved);
    if (threads.length === 0) return null;
    const count = (status: string) => threads.filter((t) => threadStatus(t) === status).length;
    return {
      total: threads.length,
      drafts: this.book.outgoing(agentId).reduce((n, o) => n + (o.thread.queued ? 0 : o.notes.length), 0),
      queued: this.book.toSend(agentId, true).reduce((n, o) => n + o.notes.length, 0),
      awaiting: count("sent"),
      addressed: count("addressed"),
      unaddressed: count("unaddressed"),
    };
  }

  private agentView(agentId: string): AgentFacts | undefined {
    return this.cards?.card(agentId);
  }

  /**
   * Follows the cards (made after the desk, whose comments they show): an agent idle again gets
   * what was queued for it; a turn's end may be the answer to what was sent.
   */
  followCards(cards: CardEvents & CardReader): Disposable {
    this.cards = cards;
    return combinedDisposable(
      cards.onDidChangeCard((card) => this.cardChanged(card)),
      cards.onDidFinishTurn((card) => this.turnFinished(card.id)),
    );
  }

  /** Types the message at the agent's prompt and marks its threads sent; false when it could not. */
  private async deliver(agentId: string, queuedOnly: boolean, show: boolean): Promise<boolean> {
    const agent = this.deps.agents.agentInfo(agentId);
    const outgoing = this.book.toSend(agentId, queuedOnly);
    if (!agent?.terminal.type || outgoing.length === 0 || this.delivering.has(agentId)) return false;
    // Asked again right before the keys go (the one rule: agentReadiness.ts): a claude that exited
    // meanwhile leaves a shell in its terminal, where the message must never be typed.
    if (!isIdle(this.agentView(agentId))) return false;
    this.delivering.add(agentId);
    const sentAt = this.now();
    try {
      const message = reviewMessage(outgoing.map((o) => this.item(agent.cwd, o)));
      // Watched before the keys go: the prompt's record can be read before type() returns.
      this.watch.sent(agentId, sentAt);
      if (show) agent.terminal.show(true);
      await agent.terminal.type(message);
      this.book.markSent(agentId, outgoing, sentAt);
      this.deps.log.info(`${agent.name}: sent ${countOf(outgoing.length, "review thread")}`);
      return true;
    } catch (err) {
      this.watch.forget(agentId);
      this.deps.log.warn(`${agent.name}: review comments not sent: ${errorMessage(err)}`);
      return false;
    } finally {
      this.delivering.delete(agentId);
    }
  }

  private item(cwd: string, { thread, notes }: OutgoingThread) {
    const inside = relative(cwd, thread.file);
    const file = inside && !inside.startsWith(`..${sep}`) && inside !== ".." && !isAbsolute(inside) ? inside : thread.file;
    const { line, lines } = thread.anchor;
    return { file, line: line + 1, lineCount: lines.length, quote: lines[0] ?? "", comments: notes.map((n) => n.body) };
  }

  private cardChanged(card: AgentFacts): void {
    const review = this.book.review(card.id);
    if (!review) return;
    // An agent that comes back (a window reload) is its own again.
    this.book.reopen(card.id);
    this.book.rename(card.id, card.name);
    if (!isIdle(card)) this.asked.delete(card.id);
    else if (this.book.isQueued(card.id)) void this.deliverQueued(card);
  }

  /** A queued send, now that the agent is idle: asked first (confirmQueuedSend), once while it stays idle. */
  private async deliverQueued(card: AgentFacts): Promise<void> {
    const confirm = this.deps.confirmQueuedSend;
    if (confirm) {
      if (this.asked.has(card.id)) return;
      this.asked.add(card.id);
      const comments = this.book.toSend(card.id, true).reduce((n, o) => n + o.notes.length, 0);
      if (!(await confirm(card.id, card.name, comments))) return;
      this.asked.delete(card.id);
    }
    await this.deliver(card.id, true, false);
  }

  private turnFinished(id: string): void {
    if (this.watch.turnFinished(id)) void this.answer(id);
    else if (this.book.threads(id).length > 0) void this.follow(id, false);
  }

  private agentRemoved(id: string): void {
    this.watch.forget(id);
    const name = this.book.review(id)?.agentName;
    const drafts = this.book.close(id);
    if (name && drafts > 0) this.deps.onClosedWithDrafts?.(id, name, drafts);
  }

  private async answer(agentId: string): Promise<void> {
    await this.follow(agentId, true);
    const view = this.reviewComments(agentId);
    const name = this.book.review(agentId)?.agentName ?? agentId;
    this.deps.log.info(`${name}: answered its review comments: ${view?.addressed ?? 0} addressed, ${view?.unaddressed ?? 0} not`);
    this.deps.onAnswered?.(agentId);
  }

  /** Reads the agent's commented files and moves its threads with their text (`verdict`: sent ones addressed or not). */
  private async follow(agentId: string, verdict: boolean): Promise<void> {
    const files = new Map<string, string[] | null | undefined>();
    for (const thread of this.book.threads(agentId)) {
      if (files.has(thread.file) || thread.resolved) continue;
      const text = await this.deps.readFile(thread.file).catch((err: unknown) => {
        this.deps.log.warn(`review comments: ${thread.file} could not be read: ${errorMessage(err)}`);
        return undefined;
      });
      files.set(thread.file, typeof text === "string" ? splitLines(text) : text);
    }
    // undefined: unreadable now (the thread stays as it is); null: the file is gone (its lines changed).
    const located = (thread: ReviewThread): Located | null | undefined => {
      const lines = files.get(thread.file);
      return lines ? locate(thread.anchor, lines) : lines;
    };
    if (verdict) this.book.answered(agentId, located);
    else this.book.relocate(agentId, located);
  }
}
