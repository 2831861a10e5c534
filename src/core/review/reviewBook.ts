/**
 * The reviewer's comments on agents' changes, per agent: threads on lines of files, each holding
 * the reviewer's notes. A note is a draft until sent to the agent; a send waits ("queued") while
 * the agent works; once the agent's next turn is over each sent thread says whether its lines
 * changed ("addressed") or not. One agent's threads are never another's: every operation names
 * its agent, and a thread id is looked up within that agent's threads only.
 * Pure state (the caller persists `saved()`, reads files, talks to terminals).
 */
import { randomUUID } from "node:crypto";
import { DisposableObject, Emitter } from "../util";
import type { LineAnchor, Located } from "./lineAnchor";

export interface ReviewNote {
  id: string;
  body: string;
  /** ms since the epoch. */
  at: number;
  /** When it was sent to the agent; null: a draft. */
  sentAt: number | null;
}

export type ThreadOutcome = "addressed" | "unaddressed";

export interface ReviewThread {
  id: string;
  /** Absolute path of the commented file. */
  file: string;
  anchor: LineAnchor;
  notes: ReviewNote[];
  /** Its drafts go out once the agent is idle. */
  queued: boolean;
  /** After the turn that followed its send: did its lines change? null: not sent, or not answered yet. */
  outcome: ThreadOutcome | null;
  resolved: boolean;
}

export interface AgentReview {
  agentId: string;
  /** As its card was last named (kept for the threads of a closed agent). */
  agentName: string;
  /** The agent was closed: its threads stay, nothing can be sent. */
  closed: boolean;
  threads: ReviewThread[];
}

/** What a thread shows now. */
export type ThreadStatus = "draft" | "queued" | "sent" | ThreadOutcome | "resolved";

export function threadStatus(thread: ReviewThread): ThreadStatus {
  if (thread.resolved) return "resolved";
  if (thread.notes.some((n) => n.sentAt === null)) return thread.queued ? "queued" : "draft";
  return thread.outcome ?? "sent";
}

/** A thread going out: the notes not sent yet. */
export interface OutgoingThread {
  thread: ReviewThread;
  notes: ReviewNote[];
}

export class ReviewBook extends DisposableObject {
  private readonly agents = new Map<string, AgentReview>();
  private readonly changed = this._register(new Emitter<string>());
  /** An agent's threads changed (its id). */
  readonly onDidChange = this.changed.event;

  constructor(
    saved: readonly AgentReview[] = [],
    private readonly newId: () => string = randomUUID,
  ) {
    super();
    for (const review of saved) this.agents.set(review.agentId, review);
  }

  /** Everything, for saving. */
  saved(): AgentReview[] {
    return [...this.agents.values()].filter((r) => r.threads.length > 0);
  }

  review(agentId: string): AgentReview | undefined {
    return this.agents.get(agentId);
  }

  all(): readonly AgentReview[] {
    return [...this.agents.values()];
  }

  threads(agentId: string): readonly ReviewThread[] {
    return this.agents.get(agentId)?.threads ?? [];
  }

  thread(agentId: string, threadId: string): ReviewThread | undefined {
    return this.agents.get(agentId)?.threads.find((t) => t.id === threadId);
  }

  /** A new thread with its first note (a draft). Refused for a closed agent. */
  addThread(agent: { id: string; name: string }, file: string, anchor: LineAnchor, body: string, now: number): ReviewThread | undefined {
    const review = this.reviewOf(agent);
    if (review.closed) return undefined;
    const note: ReviewNote = { id: this.newId(), body, at: now, sentAt: null };
    const thread: ReviewThread = { id: this.newId(), file, anchor, notes: [note], queued: false, outcome: null, resolved: false };
    review.threads.push(thread);
    this.changed.fire(agent.id);
    return thread;
  }

  /** Another note on a thread (a draft). It speaks of the lines as they are now: `anchor`, when given, replaces the old one. */
  reply(agentId: string, threadId: string, body: string, now: number, anchor?: LineAnchor): ReviewNote | undefined {
    const thread = this.thread(agentId, threadId);
    if (!thread || this.agents.get(agentId)?.closed) return undefined;
    const note: ReviewNote = { id: this.newId(), body, at: now, sentAt: null };
    thread.notes.push(note);
    if (anchor) thread.anchor = anchor;
    thread.outcome = null;
    thread.resolved = false;
    this.changed.fire(agentId);
    return note;
  }

  /** A draft's text changed (a sent note is what the agent read: it stays). */
  editNote(agentId: string, threadId: string, noteId: string, body: string): boolean {
    const note = this.thread(agentId, threadId)?.notes.find((n) => n.id === noteId);
    if (!note || note.sentAt !== null) return false;
    note.body = body;
    this.changed.fire(agentId);
    return true;
  }

  /** Deletes a note; a thread left with none goes. */
  deleteNote(agentId: string, threadId: string, noteId: string): boolean {
    const review = this.agents.get(agentId);
    const thread = this.thread(agentId, threadId);
    if (!review || !thread) return false;
    thread.notes = thread.notes.filter((n) => n.id !== noteId);
    if (thread.notes.length === 0) review.threads = review.threads.filter((t) => t !== thread);
    this.changed.fire(agentId);
    return true;
  }

  deleteThread(agentId: string, threadId: string): boolean {
    const review = this.agents.get(agentId);
    if (!review?.threads.some((t) => t.id === threadId)) return false;
    review.threads = review.threads.filter((t) => t.id !== threadId);
    this.changed.fire(agentId);
    return true;
  }

  setResolved(agentId: string, threadId: string, resolved: boolean): boolean {
    const thread = this.thread(agentId, threadId);
    if (!thread || thread.resolved === resolved) return false;
    thread.resolved = resolved;
    this.changed.fire(agentId);
    return true;
  }

  /** Threads with drafts (not resolved): what "Send" would send. */
  outgoing(agentId: string): OutgoingThread[] {
    return this.threads(agentId)
      .filter((t) => !t.resolved)
      .map((thread) => ({ thread, notes: thread.notes.filter((n) => n.sentAt === null) }))
      .filter((o) => o.notes.length > 0);
  }

  /** How many notes "Send" would send. */
  draftCount(agentId: string): number {
    return this.outgoing(agentId).reduce((n, o) => n + o.notes.length, 0);
  }

  /** The drafts wait for the agent to be idle. Returns how many notes are queued. */
  queue(agentId: string): number {
    const outgoing = this.outgoing(agentId);
    if (outgoing.length === 0 || this.agents.get(agentId)?.closed) return 0;
    for (const { thread } of outgoing) thread.queued = true;
    this.changed.fire(agentId);
    return this.draftCount(agentId);
  }

  isQueued(agentId: string): boolean {
    return this.threads(agentId).some((t) => t.queued && !t.resolved);
  }

  /** The queued threads' drafts, for sending (`queuedOnly` false: every draft). */
  toSend(agentId: string, queuedOnly: boolean): OutgoingThread[] {
    return this.outgoing(agentId).filter((o) => !queuedOnly || o.thread.queued);
  }

  /** These drafts reached the agent's prompt: sent, waiting for its turn. */
  markSent(agentId: string, sent: readonly OutgoingThread[], now: number): void {
    for (const { thread, notes } of sent) {
      for (const note of notes) note.sentAt = now;
      thread.queued = false;
      thread.outcome = null;
    }
    this.changed.fire(agentId);
  }

  /** Threads sent whose answer (the agent's next turn) has not been looked at. */
  awaiting(agentId: string): ReviewThread[] {
    return this.threads(agentId).filter((t) => !t.resolved && threadStatus(t) === "sent");
  }

  /**
   * The agent's turn after a send is over: each awaiting thread is addressed or not by `located`
   * (null: the file is gone — its lines changed; undefined: it could not be read — the thread waits
   * for the next turn); every other thread of the agent moves with its text.
   */
  answered(agentId: string, located: (thread: ReviewThread) => Located | null | undefined): void {
    const review = this.agents.get(agentId);
    if (!review) return;
    for (const thread of review.threads) {
      if (thread.resolved) continue;
      const found = located(thread);
      if (found === undefined) continue;
      if (found) thread.anchor = { ...thread.anchor, line: found.line };
      if (threadStatus(thread) === "sent") thread.outcome = !found || found.changed ? "addressed" : "unaddressed";
    }
    this.changed.fire(agentId);
  }

  /** Threads follow their text after the agent edited (no verdict given). */
  relocate(agentId: string, located: (thread: ReviewThread) => Located | null | undefined): void {
    const review = this.agents.get(agentId);
    if (!review) return;
    let moved = false;
    for (const thread of review.threads) {
      const found = located(thread);
      if (!found || found.line === thread.anchor.line) continue;
      thread.anchor = { ...thread.anchor, line: found.line };
      moved = true;
    }
    if (moved) this.changed.fire(agentId);
  }

  /** The agent's name changed. */
  rename(agentId: string, name: string): void {
    const review = this.agents.get(agentId);
    if (!review || review.agentName === name) return;
    review.agentName = name;
    this.changed.fire(agentId);
  }

  /** The agent was closed: its threads stay, a queued send is dropped. Returns how many drafts it left. */
  close(agentId: string): number {
    const review = this.agents.get(agentId);
    if (!review || review.closed) return 0;
    review.closed = true;
    for (const thread of review.threads) thread.queued = false;
    this.changed.fire(agentId);
    return this.draftCount(agentId);
  }

  /** A closed agent came back (its card restored after a window reload): its threads are its own again. */
  reopen(agentId: string): void {
    const review = this.agents.get(agentId);
    if (!review?.closed) return;
    review.closed = false;
    this.changed.fire(agentId);
  }

  /** Every thread of an agent goes (a closed agent's drafts, discarded by the user). */
  discard(agentId: string): void {
    if (!this.agents.delete(agentId)) return;
    this.changed.fire(agentId);
  }

  private reviewOf(agent: { id: string; name: string }): AgentReview {
    let review = this.agents.get(agent.id);
    if (!review) {
      review = { agentId: agent.id, agentName: agent.name, closed: false, threads: [] };
      this.agents.set(agent.id, review);
    }
    return review;
  }
}
