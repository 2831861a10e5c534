/**
 * The window's agents, in launch order, and what the card store is told about them: which agents
 * came and went (lifecycle), and which agent's part may have changed (keyed by agent: its
 * transcript, status file, terminal or focus). It composes no card and decides no turn's end:
 * the card store does both, once per tick. One place holds the agents so that restore, /clear,
 * process binding and the manager all see the same agents.
 */
import type { TranscriptRead } from "../../core/engine";
import type { TranscriptEvent } from "../../core/transcript";
import { DisposableObject, Emitter, errorMessage } from "../../core/util";
import type { AgentFacts } from "../../shared/protocol";
import type { Agent, CardLiveFacts } from "./agent";
import type { AgentBinding, BindingStore, Log, TerminalHandle } from "../ports";

/** Lifecycle only: what an agent is, the card store tells (cards). */
export type AgentChange =
  | { type: "added"; id: string }
  | { type: "removed"; id: string }
  /**
   * The CLI stopped waiting on its permission prompt (answered in the terminal or elsewhere, or
   * the process ended) at `at` (ms since the epoch): prompts relayed before then are over.
   */
  | { type: "permissionPromptLeft"; agentId: string; at: number };

/**
 * The agent's part may have changed. `news`: false while it catches up on what is already on disk
 * (a turn seen to end then is history, not news).
 */
export interface AgentTouch {
  agentId: string;
  news: boolean;
}

/** What an agent's session follower read (core/engine TranscriptRead): its session figures fold it. */
export interface RecordsRead {
  agentId: string;
  read: TranscriptRead;
}

/** Transcript events of an agent's current session, as they are read (for the MCP call matcher). */
export interface TranscriptEventsRead {
  agentId: string;
  events: readonly TranscriptEvent[];
}

export class AgentRegistry extends DisposableObject {
  private readonly agents = new Map<string, Agent>();
  private active: TerminalHandle | undefined;
  private lastFocusedAgent: Agent | undefined;
  // Listener errors are logged lazily through `log` (a parameter property, set before any fire).
  private readonly changed = this._register(new Emitter<AgentChange>((err) => this.listenerFailed(err)));
  private readonly eventsRead = this._register(new Emitter<TranscriptEventsRead>((err) => this.listenerFailed(err)));
  private readonly touched = this._register(new Emitter<AgentTouch>((err) => this.listenerFailed(err)));
  private readonly recordsRead = this._register(new Emitter<RecordsRead>((err) => this.listenerFailed(err)));
  /** An agent came or went, or left its permission prompt. */
  readonly onDidChange = this.changed.event;
  /** An agent's part may have changed (the card store composes its card again). */
  readonly onDidTouch = this.touched.event;
  /** Transcript events of an agent's current session, as they are read. */
  readonly onDidReadTranscript = this.eventsRead.event;
  /** Everything an agent's session follower reads, as it reads it (records with their events; a restore's prefix without). */
  readonly onDidReadRecords = this.recordsRead.event;

  constructor(
    private readonly store: BindingStore,
    private readonly log: Log,
    activeTerminal: TerminalHandle | undefined,
  ) {
    super();
    this.active = activeTerminal;
  }

  get(agentId: string): Agent | undefined {
    return this.agents.get(agentId);
  }

  has(agentId: string): boolean {
    return this.agents.has(agentId);
  }

  add(agent: Agent): void {
    this.agents.set(agent.id, agent);
    this.emit({ type: "added", id: agent.id });
    this.touch(agent.id);
  }

  /** Takes the card off the panel. */
  remove(agent: Agent): void {
    this.agents.delete(agent.id);
    if (this.lastFocusedAgent === agent) this.lastFocusedAgent = undefined;
    this.emit({ type: "removed", id: agent.id });
  }

  /** The agents by index (launch order). */
  ordered(): Agent[] {
    return [...this.agents.values()].sort((a, b) => a.index - b.index);
  }

  agentOf(terminal: TerminalHandle): Agent | undefined {
    for (const agent of this.agents.values()) if (agent.terminal === terminal) return agent;
    return undefined;
  }

  terminalsInUse(): TerminalHandle[] {
    return [...this.agents.values()].map((a) => a.terminal);
  }

  /** Some terminal is in front (an agent's or not). */
  get anyTerminalFocused(): boolean {
    return this.active !== undefined;
  }

  /** The agent whose terminal is in front. */
  focused(): Agent | undefined {
    return this.active ? this.agentOf(this.active) : undefined;
  }

  get lastFocused(): Agent | undefined {
    return this.lastFocusedAgent;
  }

  isFocused(agent: Agent): boolean {
    return this.active !== undefined && agent.terminal === this.active;
  }

  /** The terminal in front changed: the cards that gained or lost focus are touched. */
  setActiveTerminal(terminal: TerminalHandle | undefined): void {
    const before = this.focused();
    this.active = terminal;
    const now = this.focused();
    if (now) this.lastFocusedAgent = now;
    if (before === now) return;
    if (before) this.touch(before.id);
    if (now) this.touch(now.id);
  }

  /** A bound agent's part now, with what is live on it. */
  view(agentId: string, live?: CardLiveFacts): AgentFacts | undefined {
    const agent = this.agents.get(agentId);
    return agent?.view(this.isFocused(agent), live);
  }

  /** One past the highest index in use, saved agents waiting for their terminal included. */
  nextIndex(): number {
    let max = 0;
    for (const agent of this.agents.values()) max = Math.max(max, agent.index);
    for (const binding of this.store.load()) max = Math.max(max, binding.index);
    return max + 1;
  }

  /** Saves the bindings; `awaiting`: saved agents whose terminal has not come back (yet). */
  save(awaiting: readonly AgentBinding[]): Promise<void> {
    return this.store.save([...this.ordered().map((a) => a.binding()), ...awaiting]);
  }

  /** The agent's part may have changed; `news` false while it catches up on what is already on disk. */
  touch(agentId: string, news = true): void {
    this.touched.fire({ agentId, news });
  }

  emit(change: AgentChange): void {
    this.changed.fire(change);
  }

  transcriptRead(agentId: string, events: readonly TranscriptEvent[]): void {
    if (events.length > 0) this.eventsRead.fire({ agentId, events });
  }

  recordsReadBy(agentId: string, read: TranscriptRead): void {
    this.recordsRead.fire({ agentId, read });
  }

  /** Forgets every agent (their own cleanup is the caller's) and every listener. */
  override dispose(): void {
    this.agents.clear();
    super.dispose();
  }

  all(): Agent[] {
    return [...this.agents.values()];
  }

  private listenerFailed(err: unknown): void {
    this.log.error(`an agent listener failed: ${errorMessage(err)}`);
  }
}
