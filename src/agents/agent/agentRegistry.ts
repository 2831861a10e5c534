/**
 * The window's agents, in launch order, and what the panel is told about them: which card is
 * focused (the terminal in front), each card's update, and a turn that finished. One place holds
 * the agents so that restore, /clear, process binding and the manager all see the same cards.
 */
import type { TranscriptEvent } from "../../core/transcript";
import { DisposableObject, Emitter, errorMessage } from "../../core/util";
import type { AgentFacts } from "../../shared/protocol";
import type { Agent } from "./agent";
import type { AgentBinding, BindingStore, Log, TerminalHandle } from "../ports";

export type AgentChange =
  | { type: "updated"; agent: AgentFacts }
  | { type: "removed"; id: string }
  /** A turn ended (active → waiting): for notifications. */
  | { type: "turnFinished"; agent: AgentFacts }
  /**
   * The CLI stopped waiting on its permission prompt (answered in the terminal or elsewhere, or
   * the process ended) at `at` (ms since the epoch): prompts relayed before then are over.
   */
  | { type: "permissionPromptLeft"; agentId: string; at: number };

/** Transcript events of an agent's current session, as they are read (for the MCP call matcher). */
export interface TranscriptEventsRead {
  agentId: string;
  events: readonly TranscriptEvent[];
}

export class AgentRegistry extends DisposableObject {
  private readonly agents = new Map<string, Agent>();
  /** The status each card last showed (for "turn finished" from either source). */
  private readonly shownStatus = new Map<string, AgentFacts["status"]>();
  private active: TerminalHandle | undefined;
  private lastFocusedAgent: Agent | undefined;
  // Listener errors are logged lazily through `log` (a parameter property, set before any fire).
  private readonly changed = this._register(new Emitter<AgentChange>((err) => this.listenerFailed(err)));
  private readonly eventsRead = this._register(new Emitter<TranscriptEventsRead>((err) => this.listenerFailed(err)));
  /** A card changed, went, or finished a turn. */
  readonly onDidChange = this.changed.event;
  /** Transcript events of an agent's current session, as they are read. */
  readonly onDidReadTranscript = this.eventsRead.event;

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
    this.emitUpdated(agent);
  }

  /** Takes the card off the panel. */
  remove(agent: Agent): void {
    this.agents.delete(agent.id);
    this.shownStatus.delete(agent.id);
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

  /** The terminal in front changed: the cards that gained or lost focus are sent again. */
  setActiveTerminal(terminal: TerminalHandle | undefined): void {
    const before = this.focused();
    this.active = terminal;
    const now = this.focused();
    if (now) this.lastFocusedAgent = now;
    if (before === now) return;
    if (before) this.emitUpdated(before);
    if (now) this.emitUpdated(now);
  }

  views(): AgentFacts[] {
    return this.ordered().map((a) => a.view(this.isFocused(a)));
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

  /**
   * Sends the card. A turn that finished (the card went from active to waiting, whichever source
   * said so: the transcript or the CLI's status file) is news unless `live` is false (catching up).
   */
  emitUpdated(agent: Agent, live = true): void {
    const view = agent.view(this.isFocused(agent));
    // Recorded before anyone hears of it: a listener that looks again meanwhile sees this as shown.
    const finished = this.shown(view, live);
    this.emit({ type: "updated", agent: view });
    if (finished) this.emit({ type: "turnFinished", agent: view });
  }

  /** The card's agent part now, looked at by the card store when a live source changed it (no update is sent). */
  look(agent: Agent): AgentFacts {
    const view = agent.view(this.isFocused(agent));
    if (this.shown(view, true)) this.emit({ type: "turnFinished", agent: view });
    return view;
  }

  /** Records what the card shows now; whether that is a turn seen to end (told once, whoever looked first). */
  private shown(view: AgentFacts, live: boolean): boolean {
    const before = this.shownStatus.get(view.id);
    this.shownStatus.set(view.id, view.status);
    return live && before === "active" && view.status === "waiting";
  }

  emit(change: AgentChange): void {
    this.changed.fire(change);
  }

  transcriptRead(agentId: string, events: readonly TranscriptEvent[]): void {
    if (events.length > 0) this.eventsRead.fire({ agentId, events });
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
