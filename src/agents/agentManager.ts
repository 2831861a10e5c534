/**
 * The agents of this window: one per terminal running Claude Code, in launch order. Opens
 * terminals, binds them to sessions, follows `/clear`, survives a window reload (bindings in
 * workspace state, terminals found again by shell pid), and tells listeners what changed.
 * Knows VS Code only through the interfaces in ./ports.
 */
import { randomUUID } from "node:crypto";
import type { AgentState } from "../core/agent/agentState";
import type { TranscriptEvent } from "../core/transcript/events";
import { ProjectFolderWatcher } from "../core/engine/projectFolderWatcher";
import type { FollowerOptions } from "../core/engine/sessionFollower";
import { startsWithClear } from "../core/transcript/clearStart";
import { sessionIdOf } from "../core/transcript/subagentFiles";
import { type Clock, systemClock } from "../core/util/clock";
import type { AgentView } from "../shared/protocol";
import { Agent } from "./agent";
import { chooseClaimant, quietWait } from "./clearClaim";
import type { AgentBinding, BindingStore, ClaudeProcessState, Disposable, LaunchExtras, Log, ProcessMonitor, TerminalHandle, TerminalHost } from "./ports";

export type AgentChange =
  | { type: "updated"; agent: AgentView }
  | { type: "removed"; id: string }
  /** A turn ended (active → waiting): for notifications. */
  | { type: "turnFinished"; agent: AgentView }
  /**
   * The CLI stopped waiting on its permission prompt (answered in the terminal or elsewhere, or
   * the process ended) at `at` (ms since the epoch): prompts relayed before then are over.
   */
  | { type: "permissionPromptLeft"; agentId: string; at: number };

/** Transcript events of an agent's current session, as they are read (for the MCP call matcher). */
export type TranscriptEventsListener = (agentId: string, events: readonly TranscriptEvent[]) => void;

export interface ClaudeCommand {
  command: string;
  args: string[];
}

interface FolderWatch {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface AgentManagerDeps {
  terminals: TerminalHost;
  store: BindingStore;
  log: Log;
  projectDirFor(cwd: string): string;
  newSessionId?: () => string;
  newAgentId?: () => string;
  /** Engine timers (the idle fallback). */
  clock?: Clock;
  /** File polling and the waits of the /clear rule; defaults to the system clock. */
  ioClock?: Clock;
  followerOptions?: FollowerOptions;
  watchFolder?: (dir: string, onNewTranscript: (path: string) => void) => FolderWatch;
  /** The `claude` process of each terminal (exact status, /clear by sessionId, exit, adoption). */
  processes?: ProcessMonitor;
  /** Adopt terminals where the user started `claude` by hand (the `arcadia.adoptTerminals` setting). */
  adoptTerminals?: () => boolean;
  /** Per-agent launch files (`--mcp-config`, `--settings`), made before its terminal opens. */
  launchExtras?: (agentId: string) => Promise<LaunchExtras>;
  /** Removes an agent's launch files once it is gone. */
  removeLaunchFiles?: (paths: readonly string[]) => Promise<void>;
}

/**
 * After a window reload VS Code brings persistent terminals back a moment after extensions
 * activate: a saved agent whose terminal is not there yet waits this long for it.
 */
export const TERMINAL_REVIVAL_GRACE_MS = 15_000;

/** Terminals Arcadia opens for its tools ("Arcadia: Agent #1 commands"): never adopted. */
const ARCADIA_TERMINAL_PREFIX = "Arcadia: ";

/** How long a new file may take to show its /clear record before it is not ours. */
const CLEAR_RECORD_WAIT_MS = 5000;
const CLEAR_POLL_MS = 100;

export class AgentManager {
  private readonly agents = new Map<string, Agent>();
  private readonly folders = new Map<string, { watch: FolderWatch; users: number }>();
  private readonly listeners = new Set<(change: AgentChange) => void>();
  private readonly eventListeners = new Set<TranscriptEventsListener>();
  /** Process tracking per terminal, agent or not (a hand-started claude can be adopted). */
  private readonly tracked = new Map<TerminalHandle, Disposable>();
  private readonly adopting = new Set<TerminalHandle>();
  /** The newest process state per terminal: a card made later (restore, adopt) starts from it. */
  private readonly lastProcess = new Map<TerminalHandle, ClaudeProcessState>();
  /** The status each card last showed (for "turn finished" from either source). */
  private readonly shownStatus = new Map<string, AgentView["status"]>();
  private readonly subscriptions: Disposable[] = [];
  private readonly claiming = new Set<string>();
  private activeTerminal: TerminalHandle | undefined;
  private lastFocused: Agent | undefined;
  private restoring: Promise<void> | undefined;
  /** Saved agents whose terminal has not come back (yet) after a reload. */
  private awaitingTerminal: AgentBinding[] = [];
  private disposed = false;
  private readonly unfinished = new Set<Promise<void>>();
  private readonly clock: Clock;
  private readonly ioClock: Clock;

  constructor(private readonly deps: AgentManagerDeps) {
    this.clock = deps.clock ?? systemClock;
    this.ioClock = deps.ioClock ?? systemClock;
    this.activeTerminal = deps.terminals.active();
    this.subscriptions.push(
      deps.terminals.onDidOpen((terminal) => {
        void this.onTerminalOpened(terminal);
        void this.trackProcess(terminal);
      }),
      deps.terminals.onDidClose((terminal) => void this.onTerminalClosed(terminal)),
      deps.terminals.onDidChangeActive((terminal) => this.onActiveTerminal(terminal)),
    );
  }

  onDidChange(listener: (change: AgentChange) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  onTranscriptEvents(listener: TranscriptEventsListener): Disposable {
    this.eventListeners.add(listener);
    return { dispose: () => this.eventListeners.delete(listener) };
  }

  /** The agent's project and current session, for matching hook requests and MCP calls. */
  agentInfo(agentId: string): { name: string; sessionId: string; index: number; cwd: string } | undefined {
    const agent = this.agents.get(agentId);
    return agent ? { name: agent.name, sessionId: agent.sessionId, index: agent.index, cwd: agent.cwd } : undefined;
  }

  views(): AgentView[] {
    return this.ordered().map((a) => a.view(this.isFocused(a)));
  }

  /** Opens a terminal running Claude Code in `cwd`; its card exists before the transcript does. */
  async open(claude: ClaudeCommand, cwd: string): Promise<AgentView> {
    await this.restore();
    const index = this.nextIndex();
    const sessionId = (this.deps.newSessionId ?? randomUUID)();
    const agentId = (this.deps.newAgentId ?? randomUUID)();
    const extras = await this.launchExtrasFor(agentId, index);
    const launchArgs = [...claude.args, ...extras.args];
    let terminal: TerminalHandle;
    try {
      terminal = this.deps.terminals.launch({
        name: `Claude Code #${index}`,
        cwd,
        command: claude.command,
        args: [...launchArgs, "--session-id", sessionId],
      });
    } catch (err) {
      await this.removeLaunchFiles(extras.paths);
      throw err;
    }
    const agent = this.createAgent({
      id: agentId,
      name: `Agent #${index}`,
      index,
      terminal,
      shellPid: undefined,
      cwd,
      projectDir: this.deps.projectDirFor(cwd),
      sessionId,
      launchFiles: extras.paths,
      launchArgs,
    });
    this.deps.log.info(`${agent.name}: opened terminal "${terminal.name}" in ${cwd}, session ${sessionId}`);
    await agent.follow(sessionId, false);
    agent.shellPid = await terminal.processId();
    await this.persist();
    await this.trackProcess(terminal);
    return agent.view(this.isFocused(agent));
  }

  /**
   * Starts `claude` again in the agent's terminal after it exited, resuming its session with the
   * same arguments (and launch files) it was started with. False if it is not an exited agent.
   */
  restart(agentId: string, command: string): boolean {
    const agent = this.agents.get(agentId);
    if (!agent || !agent.hasExited) return false;
    agent.terminal.run(command, [...agent.launchArgs, "--resume", agent.sessionId]);
    agent.terminal.show(false);
    this.deps.log.info(`${agent.name}: restarting claude with --resume ${agent.sessionId}`);
    return true;
  }

  focus(agentId: string): void {
    const agent = this.agents.get(agentId);
    if (!agent) return;
    agent.terminal.show(false);
    // The terminal's activation event follows; mark it now so the card answers the click at once.
    this.onActiveTerminal(agent.terminal);
  }

  close(agentId: string): void {
    // Disposing the terminal fires onDidClose, which removes the card: one path for every way a
    // terminal can close.
    this.agents.get(agentId)?.terminal.dispose();
  }

  async rename(agentId: string, name: string): Promise<void> {
    const agent = this.agents.get(agentId);
    const trimmed = name.trim().slice(0, 80);
    if (!agent || !trimmed || agent.name === trimmed) return;
    agent.name = trimmed;
    this.emitUpdated(agent);
    await this.persist();
  }

  /**
   * Re-binds saved agents to their live terminals after a window reload, by shell pid, and
   * rebuilds each state from its transcript's tail. Agents whose terminal is gone are dropped.
   * Runs once however often it is called (the webview asks on every show).
   */
  restore(): Promise<void> {
    this.restoring ??= this.doRestore().catch((err: unknown) => {
      // Not memoized as a failure: the next call (the next time the panel shows) tries again.
      this.restoring = undefined;
      this.deps.log.error(`restoring agents failed: ${err instanceof Error ? err.message : String(err)}`);
    });
    return this.restoring;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    for (const t of this.tracked.values()) t.dispose();
    this.tracked.clear();
    await Promise.all([...this.agents.values()].map((a) => a.dispose()));
    await Promise.all([...this.folders.values()].map((f) => f.watch.stop()));
    await Promise.allSettled([...this.unfinished]);
    this.agents.clear();
    this.folders.clear();
    this.listeners.clear();
    this.eventListeners.clear();
  }

  private async doRestore(): Promise<void> {
    // Terminals that were there before Arcadia started: their claude may be adopted.
    for (const terminal of this.deps.terminals.all()) void this.trackProcess(terminal);
    const bindings = this.deps.store.load();
    if (bindings.length === 0) return;
    const terminals = this.deps.terminals.all();
    const pids = await Promise.all(terminals.map((t) => t.processId()));
    const taken = new Set<TerminalHandle>(this.terminalsInUse());
    for (const binding of bindings) {
      if (this.agents.has(binding.agentId)) continue;
      const terminal = findTerminal(binding, terminals, pids, taken);
      if (!terminal) {
        this.awaitingTerminal.push(binding);
        continue;
      }
      taken.add(terminal);
      await this.rebind(binding, terminal);
    }
    // Terminals VS Code revived while the above was awaited did not reach onTerminalOpened's
    // list in time: look once more.
    for (const terminal of this.deps.terminals.all()) await this.matchAwaiting(terminal);
    if (this.awaitingTerminal.length > 0) {
      this.deps.log.info(`waiting up to ${TERMINAL_REVIVAL_GRACE_MS / 1000} s for the terminals of ${this.awaitingTerminal.map((b) => b.name).join(", ")}`);
      this.ioClock.setTimeout(() => void this.giveUpOnTerminals(), TERMINAL_REVIVAL_GRACE_MS);
    }
    await this.persist();
  }

  private async rebind(binding: AgentBinding, terminal: TerminalHandle): Promise<void> {
    const agent = this.createAgent({
      id: binding.agentId,
      name: binding.name,
      index: binding.index,
      terminal,
      shellPid: binding.shellPid,
      cwd: binding.cwd,
      projectDir: this.deps.projectDirFor(binding.cwd),
      sessionId: binding.sessionId,
      launchFiles: binding.launchFiles,
      launchArgs: binding.launchArgs,
      expectRunning: true,
    });
    this.deps.log.info(`${agent.name}: restored, bound to terminal "${terminal.name}", session ${binding.sessionId}`);
    await agent.follow(binding.sessionId, true);
    void this.trackProcess(terminal);
  }

  /** A terminal came back after a reload: the saved agent with its shell pid gets its card back. */
  private async onTerminalOpened(terminal: TerminalHandle): Promise<void> {
    // During the restore itself, its own final pass matches terminals that open meanwhile.
    await this.restoring?.catch(() => undefined);
    await this.matchAwaiting(terminal);
    await this.persist();
  }

  private async matchAwaiting(terminal: TerminalHandle): Promise<void> {
    if (this.awaitingTerminal.length === 0 || this.agentOf(terminal)) return;
    const pid = await terminal.processId();
    const binding = this.awaitingTerminal.find((b) => b.shellPid !== undefined && b.shellPid === pid);
    if (!binding || this.agents.has(binding.agentId)) return;
    this.awaitingTerminal = this.awaitingTerminal.filter((b) => b !== binding);
    await this.rebind(binding, terminal);
  }

  private async giveUpOnTerminals(): Promise<void> {
    if (this.disposed || this.awaitingTerminal.length === 0) return;
    for (const binding of this.awaitingTerminal) {
      this.deps.log.info(`${binding.name}: its terminal is gone; dropping it`);
      void this.removeLaunchFiles(binding.launchFiles ?? []);
    }
    this.awaitingTerminal = [];
    await this.persist();
  }

  private createAgent(init: ConstructorParameters<typeof Agent>[0]): Agent {
    const agent = new Agent(
      init,
      { clock: this.clock, pollClock: this.ioClock, ...this.deps.followerOptions, onError: (err) => this.deps.log.warn(`${init.name}: reading its transcript failed: ${String(err)}`),
        onWarning: (message) => this.deps.log.warn(`${init.name}: ${message}`),
      },
      (changed, previous, events) => {
        this.onAgentState(changed, previous);
        if (events.length > 0) for (const listener of this.eventListeners) listener(changed.id, events);
      },
      () => this.ioClock.now(),
    );
    this.agents.set(agent.id, agent);
    const known = this.lastProcess.get(init.terminal);
    if (known) agent.setProcess(known);
    this.watchProject(agent.projectDir);
    this.emitUpdated(agent);
    return agent;
  }

  private onAgentState(agent: Agent, previous: AgentState | undefined): void {
    if (!this.agents.has(agent.id)) return;
    // `previous` is undefined while the agent catches up on what is already on disk: history, not news.
    this.emitUpdated(agent, previous !== undefined);
  }

  private async onTerminalClosed(terminal: TerminalHandle): Promise<void> {
    this.tracked.get(terminal)?.dispose();
    this.tracked.delete(terminal);
    this.lastProcess.delete(terminal);
    const agent = this.agentOf(terminal);
    if (!agent) return;
    this.agents.delete(agent.id);
    this.shownStatus.delete(agent.id);
    if (this.lastFocused === agent) this.lastFocused = undefined;
    this.unwatchProject(agent.projectDir);
    this.emit({ type: "removed", id: agent.id });
    this.deps.log.info(`${agent.name}: terminal closed; card removed`);
    await this.finishBeforeDispose(async () => {
      // Saved first: a window reload right after must not bring the card back.
      await this.persist();
      await agent.dispose();
      await this.removeLaunchFiles(agent.launchFiles);
    });
  }

  private onActiveTerminal(terminal: TerminalHandle | undefined): void {
    const before = this.activeTerminal ? this.agentOf(this.activeTerminal) : undefined;
    this.activeTerminal = terminal;
    const now = terminal ? this.agentOf(terminal) : undefined;
    if (now) this.lastFocused = now;
    if (before === now) return;
    if (before) this.emitUpdated(before);
    if (now) this.emitUpdated(now);
  }

  // ---- /clear --------------------------------------------------------------------------------

  private watchProject(dir: string): void {
    const existing = this.folders.get(dir);
    if (existing) {
      existing.users++;
      return;
    }
    const onNew = (path: string) => void this.considerNewTranscript(dir, path);
    const watch = this.deps.watchFolder?.(dir, onNew) ?? new ProjectFolderWatcher(dir, onNew);
    this.folders.set(dir, { watch, users: 1 });
    void watch.start().catch((err) => this.deps.log.warn(`watching ${dir} failed: ${String(err)}`));
  }

  private unwatchProject(dir: string): void {
    const entry = this.folders.get(dir);
    if (!entry || --entry.users > 0) return;
    this.folders.delete(dir);
    void entry.watch.stop();
  }

  /** A new transcript appeared: if a /clear made it, the focused agent of that project moves to it. */
  private async considerNewTranscript(projectDir: string, file: string): Promise<void> {
    if (this.claiming.has(file) || this.ordered().some((a) => a.transcript === file)) return;
    this.claiming.add(file);
    try {
      // The file is created before its first records are written: give them a moment.
      let isClear = false;
      for (let waited = 0; waited <= CLEAR_RECORD_WAIT_MS && !this.disposed; waited += CLEAR_POLL_MS) {
        if ((isClear = await startsWithClear(file))) break;
        await this.sleep(CLEAR_POLL_MS);
      }
      if (!isClear) {
        this.deps.log.info(`${file}: not started by /clear (e.g. --resume or another window); not claimed`);
        return;
      }
      if (this.ordered().some((a) => a.processSessionId === sessionIdOf(file))) return;
      const focused = this.activeTerminal ? this.agentOf(this.activeTerminal) : undefined;
      const claimant = chooseClaimant(projectDir, file, this.ordered(), focused, this.lastFocused, this.activeTerminal !== undefined);
      if (!claimant) {
        this.deps.log.info(`${file}: started by /clear, but no focused agent in its project claims it`);
        return;
      }
      if (claimant.processSessionId !== undefined) {
        // Its process says exactly which session it is in: that rule moves it, not this guess.
        return;
      }
      // After /clear the old file still gets a last record or two; switch once it is quiet.
      for (let wait = quietWait(claimant, this.ioClock.now()); wait > 0; wait = quietWait(claimant, this.ioClock.now())) {
        await this.sleep(wait);
      }
      if (!this.agents.has(claimant.id) || this.ordered().some((a) => a.transcript === file)) return;
      const previous = claimant.sessionId;
      await claimant.follow(sessionIdOf(file), false);
      this.deps.log.info(`${claimant.name}: /clear, moved from session ${previous} to ${claimant.sessionId}`);
      await this.persist();
    } finally {
      this.claiming.delete(file);
    }
  }

  // ---- the claude process behind each terminal ---------------------------------------------

  private async trackProcess(terminal: TerminalHandle): Promise<void> {
    const monitor = this.deps.processes;
    if (!monitor || this.disposed || this.tracked.has(terminal)) return;
    // Other terminals only for adoption, and never Arcadia's own command terminals.
    if (!this.agentOf(terminal) && (!(this.deps.adoptTerminals?.() ?? true) || terminal.name.startsWith(ARCADIA_TERMINAL_PREFIX))) return;
    const pid = await terminal.processId();
    if (pid === undefined || this.disposed || this.tracked.has(terminal)) return;
    if (!this.deps.terminals.all().includes(terminal)) return;
    this.tracked.set(terminal, monitor.track(pid, (state) => void this.onProcessState(terminal, state)));
  }

  private async onProcessState(terminal: TerminalHandle, state: ClaudeProcessState): Promise<void> {
    if (this.disposed) return;
    this.lastProcess.set(terminal, state);
    const agent = this.agentOf(terminal);
    if (!agent) {
      if (state.state === "running") await this.adopt(terminal, state);
      return;
    }
    const wasExited = agent.hasExited;
    const wasWaiting = agent.waitingOnPermission;
    if (agent.setProcess(state)) this.emitUpdated(agent);
    if (wasWaiting && !agent.waitingOnPermission) {
      const at = state.state === "running" && state.statusUpdatedAt !== undefined ? state.statusUpdatedAt : Date.now();
      this.emit({ type: "permissionPromptLeft", agentId: agent.id, at });
    }
    if (!wasExited && agent.hasExited) this.deps.log.info(`${agent.name}: claude exited`);
    // The CLI names its session exactly: /clear (and a --resume restart) move the card at once.
    if (state.state === "running" && state.sessionId && state.sessionId !== agent.sessionId) {
      const previous = agent.sessionId;
      // From the tail: a `--resume` can name a long session that already exists.
      await agent.follow(state.sessionId, true);
      if (agent.sessionId !== previous) {
        this.deps.log.info(`${agent.name}: its claude moved from session ${previous} to ${agent.sessionId}`);
        await this.persist();
      }
    }
  }

  /** A terminal where the user started `claude` by hand gets a card (arcadia.adoptTerminals). */
  private async adopt(terminal: TerminalHandle, state: Extract<ClaudeProcessState, { state: "running" }>): Promise<void> {
    if (!state.sessionId || !state.cwd || !(this.deps.adoptTerminals?.() ?? true)) return;
    await this.restoring?.catch(() => undefined);
    if (this.adopting.has(terminal) || this.agentOf(terminal) || this.disposed) return;
    const shellPid = await terminal.processId();
    // A saved agent's terminal coming back after a reload is restored, not adopted.
    if (this.awaitingTerminal.some((b) => b.shellPid === shellPid) || this.agentOf(terminal)) return;
    this.adopting.add(terminal);
    try {
      const index = this.nextIndex();
      const agent = this.createAgent({
        id: (this.deps.newAgentId ?? randomUUID)(),
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
      await this.persist();
    } finally {
      this.adopting.delete(terminal);
    }
  }

  private async launchExtrasFor(agentId: string, index: number): Promise<LaunchExtras> {
    if (!this.deps.launchExtras) return { args: [], paths: [] };
    try {
      return await this.deps.launchExtras(agentId);
    } catch (err) {
      // Claude Code still starts, only without Arcadia's tools and prompts.
      this.deps.log.error(`Agent #${index}: could not write its MCP/hook settings, starting without them: ${err instanceof Error ? err.message : String(err)}`);
      return { args: [], paths: [] };
    }
  }

  private async removeLaunchFiles(paths: readonly string[]): Promise<void> {
    if (paths.length === 0 || !this.deps.removeLaunchFiles) return;
    const remove = this.deps.removeLaunchFiles;
    await this.finishBeforeDispose(() => remove(paths).catch((err: unknown) => this.deps.log.warn(`removing ${paths.join(", ")} failed: ${String(err)}`)));
  }

  /** Work that dispose() waits for: a window that closes right after an agent went leaves no token file behind. */
  private async finishBeforeDispose(work: () => Promise<void>): Promise<void> {
    const running = work();
    this.unfinished.add(running);
    try {
      await running;
    } finally {
      this.unfinished.delete(running);
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.ioClock.setTimeout(resolve, ms));
  }

  private ordered(): Agent[] {
    return [...this.agents.values()].sort((a, b) => a.index - b.index);
  }

  private agentOf(terminal: TerminalHandle): Agent | undefined {
    for (const agent of this.agents.values()) if (agent.terminal === terminal) return agent;
    return undefined;
  }

  private terminalsInUse(): TerminalHandle[] {
    return [...this.agents.values()].map((a) => a.terminal);
  }

  private isFocused(agent: Agent): boolean {
    return this.activeTerminal !== undefined && agent.terminal === this.activeTerminal;
  }

  private nextIndex(): number {
    let max = 0;
    for (const agent of this.agents.values()) max = Math.max(max, agent.index);
    for (const binding of this.deps.store.load()) max = Math.max(max, binding.index);
    return max + 1;
  }

  /**
   * Sends the card. A turn that finished (the card went from active to waiting, whichever source
   * said so: the transcript or the CLI's status file) is news unless `live` is false (catching up).
   */
  private emitUpdated(agent: Agent, live = true): void {
    const view = agent.view(this.isFocused(agent));
    const before = this.shownStatus.get(agent.id);
    this.shownStatus.set(agent.id, view.status);
    this.emit({ type: "updated", agent: view });
    if (live && before === "active" && view.status === "waiting") this.emit({ type: "turnFinished", agent: view });
  }

  private emit(change: AgentChange): void {
    for (const listener of this.listeners) listener(change);
  }

  private async persist(): Promise<void> {
    if (this.disposed) return;
    // Agents still waiting for their terminal stay saved until they are given up on.
    await this.deps.store.save([...this.ordered().map((a) => a.binding()), ...this.awaitingTerminal]);
  }
}

/**
 * The live terminal a saved agent ran in: the one with its shell pid. Names are used only when
 * no pid was saved, and only if exactly one free terminal has that name.
 */
function findTerminal(
  binding: AgentBinding,
  terminals: readonly TerminalHandle[],
  pids: readonly (number | undefined)[],
  taken: ReadonlySet<TerminalHandle>,
): TerminalHandle | undefined {
  if (binding.shellPid !== undefined) {
    const index = pids.findIndex((pid, i) => pid === binding.shellPid && !taken.has(terminals[i] as TerminalHandle));
    return index >= 0 ? terminals[index] : undefined;
  }
  const named = terminals.filter((t) => t.name === binding.terminalName && !taken.has(t));
  return named.length === 1 ? named[0] : undefined;
}
