/**
 * One session's engine: records in, events and agent state out. It owns the pipeline's timers
 * (the idle fallback for turns that end without `turn_duration`, the grace for a finished
 * sub-agent's late results), driven by an injectable clock so tests and replay never wait on the
 * wall clock.
 */
import * as agent from "../agent";
import type { AgentState } from "../agent";
import * as transcript from "../transcript";
import { type RecordSource, type TranscriptEvent, TranscriptInterpreter } from "../transcript";
import { type Clock, DisposableObject, Emitter, systemClock, type TimerHandle } from "../util";

// Taken from the imports once, here: called per record and per event (20,000 open tools: 60,000
// calls), and where each module is loaded on its own (tsx in the bench, vitest) every call through
// an import runs two to four getters of the loader's (a tenth of that run). Bundled, the same.
const { initialAgentState, reduceAgent } = agent;
const { isObject, MAIN, timestampOf } = transcript;

/** How long a text-only reply must stand alone before the turn counts as over (print mode). */
export const DEFAULT_IDLE_DELAY_MS = 3000;
/** How long a finished sub-agent's last tool results may lag behind its hand-back. */
export const STRAGGLER_GRACE_MS = 2000;

export interface SessionEngineOptions {
  clock?: Clock;
  idleDelayMs?: number;
  /** Start from this state, e.g. `active` when restoring into the middle of a long turn. */
  initialState?: AgentState;
  /** The transcript is a sub-agent's own file, read on its own. */
  standalone?: boolean;
}

/** The state after a batch, and the batch's events (none for a timer or a reset). */
export interface EngineChange {
  state: AgentState;
  events: readonly TranscriptEvent[];
}

export class SessionEngine extends DisposableObject {
  private currentInterpreter: TranscriptInterpreter;
  private current: AgentState;
  private idleTimer: TimerHandle | undefined;
  private stragglerTimer: TimerHandle | undefined;
  /** Each straggler's tool id → when (engine clock) it became one. */
  private readonly stragglerSince = new Map<string, number>();
  private readonly changed = this._register(new Emitter<EngineChange>());
  /** Told after every batch that changed something (events, or the state alone). */
  readonly onDidChange = this.changed.event;
  /** Transcript time when the idle wait began: the timestamp of the text reply that armed it. */
  private idleArmedAt: number | undefined;
  private readonly clock: Clock;
  private readonly idleDelayMs: number;
  private readonly standalone: boolean;

  constructor(opts: SessionEngineOptions = {}) {
    super();
    // Disposed before the emitter (newest first): a timer never fires into an engine that is gone.
    this._register({ dispose: () => this.cancelTimers() });
    this.clock = opts.clock ?? systemClock;
    this.idleDelayMs = opts.idleDelayMs ?? DEFAULT_IDLE_DELAY_MS;
    this.current = opts.initialState ?? initialAgentState;
    this.standalone = opts.standalone ?? false;
    this.currentInterpreter = new TranscriptInterpreter(this.standalone);
  }

  get interpreter(): TranscriptInterpreter {
    return this.currentInterpreter;
  }

  /**
   * Forgets everything read so far (the file was truncated or replaced, or reading restarts
   * mid-file) and starts over from `state`.
   */
  reset(state: AgentState = initialAgentState): void {
    this.currentInterpreter = new TranscriptInterpreter(this.standalone);
    this.cancelTimers();
    this.idleArmedAt = undefined;
    if (state !== this.current) {
      this.current = state;
      this.emit([]);
    }
  }

  get state(): AgentState {
    return this.current;
  }

  /**
   * Feeds records (already parsed) and returns the events they produced.
   *
   * The idle wait of a text-only reply also ends by the transcript's own clock: a record stamped
   * `idleDelayMs` or more after the reply means the wait was over before it. One rule for every
   * reader — live, restored (which reads a whole turn at once, long after it was written) and
   * replay (whose clock follows the same timestamps) — so they agree on how the turn ended.
   */
  ingest(records: Iterable<unknown>, source: RecordSource = MAIN): TranscriptEvent[] {
    const events: TranscriptEvent[] = [];
    const before = this.current;
    let rearm = false;
    for (const record of records) {
      // Timestamps are parsed only during an idle wait: Date.parse per record would cost replay ~10 %.
      if (this.idleArmedAt !== undefined && isObject(record)) {
        const at = timestampOf(record);
        if (at !== undefined && at - this.idleArmedAt >= this.idleDelayMs) {
          this.idleArmedAt = undefined;
          this.current = reduceAgent(this.current, { kind: "idleTimeout" });
        }
      }
      const first = events.length;
      this.currentInterpreter.handle(record, source, events);
      for (let i = first; i < events.length; i++) rearm = this.reduce(events[i] as TranscriptEvent) || rearm;
    }
    this.settle(before, events, rearm);
    return events;
  }

  /**
   * The reader dropped lines too large to read (over its cap) at this point of the stream: a tool
   * open now that later closes without its result ends `unknown`.
   */
  linesDropped(count: number): void {
    if (count > 0) this.interpreter.linesDropped(count);
  }

  /** The session is over (the agent moved on, or its process ended): close what is open. */
  endSession(): TranscriptEvent[] {
    const events = this.interpreter.endSession(this.clock.now());
    this.apply(events);
    return events;
  }

  /** Its `claude` process is gone (known from the process table): end what it left running. */
  processExited(): TranscriptEvent[] {
    const events = this.interpreter.processExited(this.current.status === "active", this.clock.now());
    this.apply(events);
    return events;
  }

  /** The idle wait and the stragglers' grace stop (a reset, or the engine going). */
  private cancelTimers(): void {
    this.idleTimer?.cancel();
    this.idleTimer = undefined;
    this.stragglerTimer?.cancel();
    this.stragglerTimer = undefined;
    this.stragglerSince.clear();
  }

  private apply(events: readonly TranscriptEvent[]): void {
    const before = this.current;
    let rearm = false;
    for (const event of events) rearm = this.reduce(event) || rearm;
    this.settle(before, events, rearm);
  }

  /** One event into the state; true when it (re)arms the idle wait. */
  private reduce(event: TranscriptEvent): boolean {
    this.current = reduceAgent(this.current, event);
    if (event.kind !== "assistantText") return false;
    this.idleArmedAt = this.current.awaitingIdle ? event.at : undefined;
    return true;
  }

  /** After a batch: timers follow the new state, and listeners hear of any change. */
  private settle(before: AgentState, events: readonly TranscriptEvent[], rearm: boolean): void {
    if (events.length === 0 && this.current === before) return;
    this.scheduleIdle(rearm);
    this.scheduleStragglers();
    this.emit(events);
  }

  /**
   * A finished sub-agent's tools still open get a grace of their own for their late results,
   * counted from when each became a straggler.
   */
  private scheduleStragglers(): void {
    const ids = this.currentInterpreter.stragglerIds();
    if (ids.length === 0 && this.stragglerSince.size === 0 && !this.stragglerTimer) return; // the usual case, per record
    const now = this.clock.now();
    const current = new Set(ids);
    for (const id of this.stragglerSince.keys()) if (!current.has(id)) this.stragglerSince.delete(id);
    for (const id of current) if (!this.stragglerSince.has(id)) this.stragglerSince.set(id, now);
    this.stragglerTimer?.cancel();
    this.stragglerTimer = undefined;
    if (this.stragglerSince.size === 0) return;
    const oldest = Math.min(...this.stragglerSince.values());
    this.stragglerTimer = this.clock.setTimeout(
      () => {
        this.stragglerTimer = undefined;
        const due = new Set<string>();
        for (const [id, since] of this.stragglerSince) if (this.clock.now() - since >= STRAGGLER_GRACE_MS) due.add(id);
        const events = this.currentInterpreter.closeStragglers(due, this.clock.now());
        if (events.length > 0) this.apply(events);
        else this.scheduleStragglers();
      },
      Math.max(0, oldest + STRAGGLER_GRACE_MS - now),
    );
  }

  private scheduleIdle(rearm: boolean): void {
    if (!this.current.awaitingIdle) {
      this.idleTimer?.cancel();
      this.idleTimer = undefined;
      return;
    }
    if (this.idleTimer && !rearm) return;
    this.idleTimer?.cancel();
    this.idleTimer = this.clock.setTimeout(() => {
      this.idleTimer = undefined;
      const next = reduceAgent(this.current, { kind: "idleTimeout" });
      if (next !== this.current) {
        this.current = next;
        this.emit([]);
      }
    }, this.idleDelayMs);
  }

  private emit(events: readonly TranscriptEvent[]): void {
    if (this.changed.hasListeners) this.changed.fire({ state: this.current, events });
  }
}
