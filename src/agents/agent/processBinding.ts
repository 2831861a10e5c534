/**
 * The `claude` process behind each terminal (src/core/process through the ProcessMonitor port):
 * its exact status and session go to the agent's card (a /clear or `--resume` moves the card at
 * once), its exit ends what it left running, and a terminal where the user started `claude` by
 * hand gets a card of its own (adoption, the `arcadia.adoptTerminals` setting). Agents' terminals
 * are tracked always, other terminals only for adoption, never Arcadia's own command terminals.
 * A prompt Arcadia types and submits at an agent's claude goes to its card too: the CLI writes busy
 * to its status file only once its query starts, seconds after its spinner on a loaded machine.
 */
import { DisposableMap, DisposableObject } from "../../core/util";
import type { Agent, AgentInit } from "./agent";
import type { AgentRegistry } from "./agentRegistry";
import type { ClaudeProcessState, Disposable, Log, ProcessMonitor, TerminalHandle, TerminalHost } from "../ports";

/** A command line that ran claude: ours carry `--session-id` (launch) or `--resume` (restart). */
export function isClaudeCommandLine(line: string): boolean {
  return /(?:^|\s)--(?:session-id|resume)(?:\s|=)/.test(line) || /(?:^|[\s/\\'"])claude(?:\.exe|\.cmd)?['"]?(?:\s|$)/.test(line);
}

/** Terminals Arcadia opens for its tools ("Arcadia: Agent #1 commands"): never adopted. */
const ARCADIA_TERMINAL_PREFIX = "Arcadia: ";

export interface ProcessBindingDeps {
  registry: AgentRegistry;
  terminals: TerminalHost;
  log: Log;
  monitor: ProcessMonitor | undefined;
  adoptTerminals: () => boolean;
  newAgentId: () => string;
  projectDirFor(cwd: string): string;
  createAgent(init: AgentInit): Agent;
  persist(): Promise<void>;
  isDisposed(): boolean;
  /** The restore in progress, if any: adoption waits for it. */
  restoring(): Promise<void> | undefined;
  /** A saved agent whose terminal (this shell pid) has not come back yet: restored, not adopted. */
  isAwaited(shellPid: number | undefined): boolean;
}

export class ProcessBinding extends DisposableObject {
  /** Process tracking per terminal, agent or not (a hand-started claude can be adopted); ends with the binding. */
  private readonly tracked = this._register(new DisposableMap<TerminalHandle, Disposable>());
  private readonly adopting = new Set<TerminalHandle>();
  /** The newest process state per terminal: a card made later (restore, adopt) starts from it. */
  private readonly lastState = new Map<TerminalHandle, ClaudeProcessState>();

  constructor(private readonly deps: ProcessBindingDeps) {
    super();
    const typed = deps.terminals.onDidType?.((terminal) => {
      const agent = deps.registry.agentOf(terminal);
      if (agent?.promptSubmitted()) deps.registry.touch(agent.id);
    });
    if (typed) this._register(typed);
  }

  /** What the monitor last said about the terminal's claude, if anything. */
  lastStateOf(terminal: TerminalHandle): ClaudeProcessState | undefined {
    return this.lastState.get(terminal);
  }

  /** New agents' shell bindings in flight, by agent id. */
  private readonly binding = new Map<string, Promise<void>>();

  async track(terminal: TerminalHandle): Promise<void> {
    const { monitor, registry } = this.deps;
    if (!monitor || this.deps.isDisposed() || this.tracked.has(terminal)) return;
    // Other terminals only for adoption, and never Arcadia's own command terminals.
    if (!registry.agentOf(terminal) && (!this.deps.adoptTerminals() || terminal.name.startsWith(ARCADIA_TERMINAL_PREFIX))) return;
    const pid = await terminal.processId();
    if (pid === undefined || this.deps.isDisposed() || this.tracked.has(terminal)) return;
    if (!this.deps.terminals.all().includes(terminal)) return;
    this.tracked.set(
      terminal,
      monitor.track(pid, (state) => void this.onProcessState(terminal, state)),
    );
  }

  /** A new agent's shell: its pid saved and its claude followed once the terminal has one, else when it comes (followLateShell). */
  bindShell(agent: Agent, shell: Promise<number | undefined>): Promise<void> {
    const bound = this.bind(agent, shell).finally(() => this.binding.delete(agent.id));
    this.binding.set(agent.id, bound);
    return bound;
  }

  /** Settles once a new agent's shell is saved (or its wait ended); at once for any other. */
  whenBound(agentId: string): Promise<void> {
    return this.binding.get(agentId) ?? Promise.resolve();
  }

  private async bind(agent: Agent, shell: Promise<number | undefined>): Promise<void> {
    agent.shellPid = await shell;
    if (this.deps.isDisposed() || this.deps.registry.get(agent.id) !== agent) return;
    await this.deps.persist();
    if (agent.shellPid !== undefined) await this.track(agent.terminal);
    else this.followLateShell(agent);
  }

  /**
   * A new agent's terminal had no shell within the wait (terminalOpenings.ts): its card stays (it
   * says so once its claude is not ready in time); a shell that comes later is followed and saved.
   */
  followLateShell(agent: Agent): void {
    const { registry, log } = this.deps;
    log.warn(`${agent.name}: its terminal has no shell yet; its claude is followed once it has one`);
    void agent.terminal.processId().then(async (pid) => {
      if (pid === undefined || this.deps.isDisposed() || registry.get(agent.id) !== agent) return;
      agent.shellPid = pid;
      log.info(`${agent.name}: its terminal's shell started late (pid ${pid})`);
      await this.deps.persist();
      await this.track(agent.terminal);
    });
  }

  /** The terminal closed. */
  forget(terminal: TerminalHandle): void {
    this.tracked.deleteAndDispose(terminal);
    this.lastState.delete(terminal);
  }

  private async onProcessState(terminal: TerminalHandle, state: ClaudeProcessState): Promise<void> {
    const { registry, log } = this.deps;
    if (this.deps.isDisposed()) return;
    this.lastState.set(terminal, state);
    const agent = registry.agentOf(terminal);
    if (!agent) {
      if (state.state === "running") await this.adopt(terminal, state);
      return;
    }
    const wasExited = agent.hasExited;
    const wasWaiting = agent.waitingOnPermission;
    if (agent.setProcess(state)) registry.touch(agent.id);
    if (wasWaiting && !agent.waitingOnPermission) {
      const at = state.state === "running" && state.statusUpdatedAt !== undefined ? state.statusUpdatedAt : Date.now();
      registry.emit({ type: "permissionPromptLeft", agentId: agent.id, at });
    }
    if (!wasExited && agent.hasExited) log.info(`${agent.name}: claude exited`);
    // The CLI names its session exactly: /clear (and a --resume restart) move the card at once.
    if (state.state === "running" && state.sessionId && state.sessionId !== agent.sessionId) {
      const previous = agent.sessionId;
      // From the tail: a `--resume` can name a long session that already exists.
      await agent.follow(state.sessionId, true);
      if (agent.sessionId !== previous) {
        log.info(`${agent.name}: its claude moved from session ${previous} to ${agent.sessionId}`);
        await this.deps.persist();
      }
    }
  }

  /** A terminal where the user started `claude` by hand gets a card (arcadia.adoptTerminals). */
  private async adopt(terminal: TerminalHandle, state: Extract<ClaudeProcessState, { state: "running" }>): Promise<void> {
    const { registry } = this.deps;
    if (!state.sessionId || !state.cwd || !this.deps.adoptTerminals()) return;
    await this.deps.restoring()?.catch(() => undefined);
    if (this.adopting.has(terminal) || registry.agentOf(terminal) || this.deps.isDisposed()) return;
    const shellPid = await terminal.processId();
    // A saved agent's terminal coming back after a reload is restored, not adopted.
    if (this.deps.isAwaited(shellPid) || registry.agentOf(terminal)) return;
    this.adopting.add(terminal);
    try {
      const index = registry.nextIndex();
      const agent = this.deps.createAgent({
        id: this.deps.newAgentId(),
        name: `Agent #${index}`,
        index,
        terminal,
        shellPid,
        cwd: state.cwd,
        projectDir: this.deps.projectDirFor(state.cwd),
        sessionId: state.sessionId,
      });
      this.deps.log.info(`${agent.name}: adopted terminal "${terminal.name}" (claude pid ${state.pid} started by hand), session ${state.sessionId}`);
      await agent.follow(state.sessionId, true);
      await this.deps.persist();
    } finally {
      this.adopting.delete(terminal);
    }
  }
}
