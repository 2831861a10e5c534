/**
 * The agents of this window: one per terminal running Claude Code, in launch order. Launches,
 * focuses, renames, restarts and closes them, and ties together the parts that keep the cards
 * true: the registry and its change events (agentRegistry.ts), restore after a window reload
 * (agentRestore.ts), /clear by the content rule (clearWatch.ts), and the claude process behind
 * each terminal, adoption included (processBinding.ts). Knows VS Code only through ./ports.
 */
import { randomUUID } from "node:crypto";
import type { FollowerOptions } from "../../core/engine";
import { type Clock, DisposableStore, errorMessage, type Event, systemClock } from "../../core/util";
import { AGENT_NAME_MAX_LENGTH, type AgentFacts } from "../../shared/protocol";
import { Agent, type AgentInit, type CardLiveFacts } from "./agent";
import { type AgentChange, AgentRegistry, type AgentTouch, type RecordsRead, type TranscriptEventsRead } from "./agentRegistry";
import { AgentRestore } from "./agentRestore";
import { ClearWatch, projectFolderWatch, type WatchFolder } from "./clearWatch";
import type { BindingStore, EndedCommand, LaunchExtras, LaunchPlace, Log, ProcessMonitor, TerminalHandle, TerminalHost } from "../ports";
import { isClaudeCommandLine, ProcessBinding } from "./processBinding";
import { TerminalOpenings } from "./terminalOpenings";
import { isSessionId } from "../../core/transcript";
import { worktreeEnv } from "../../core/git";

export type { AgentChange, AgentTouch, TranscriptEventsRead } from "./agentRegistry";
export { TERMINAL_REVIVAL_GRACE_MS } from "./agentRestore";

/** "Agent #3": a new agent's name, its card's and its terminal's. */
export function agentName(index: number): string {
  return `Agent #${index}`;
}

export interface ClaudeCommand {
  command: string;
  args: string[];
  sandbox?: "on" | "off"; // the launch's own sandbox choice (Open Claude Code's options), else the setting's
}

export interface AgentManagerDeps {
  terminals: TerminalHost;
  store: BindingStore;
  log: Log;
  projectDirFor(cwd: string): string;
  newSessionId?: () => string;
  newAgentId?: () => string;
  clock?: Clock; // engine timers (the idle fallback)
  ioClock?: Clock; // file polling and the waits of the /clear rule; defaults to the system clock
  followerOptions?: FollowerOptions;
  watchFolder?: WatchFolder;
  /** The `claude` process of each terminal (exact status, /clear by sessionId, exit, adoption). */
  processes?: ProcessMonitor;
  /** Adopt terminals where the user started `claude` by hand (the `arcadia.adoptTerminals` setting). */
  adoptTerminals?: () => boolean;
  /** Per-agent launch files (`--mcp-config`, `--settings`), made before its terminal opens. */
  launchExtras?: (agentId: string, place: LaunchPlace) => Promise<LaunchExtras>;
  /** Removes an agent's launch files once it is gone. */
  removeLaunchFiles?: (paths: readonly string[]) => Promise<void>;
  /** Whether a process runs with this pid (default: signal 0); tests decide. */
  isProcessAlive?: (pid: number) => boolean;
  shellWaitMs?: number; // how long a new terminal may take to get its shell before the next one opens (terminalOpenings.ts)
}

export class AgentManager {
  private readonly registry: AgentRegistry;
  private readonly restorer: AgentRestore;
  private readonly clearWatch: ClearWatch;
  private readonly processes: ProcessBinding;
  private readonly owned = new DisposableStore();
  private disposed = false;
  private readonly unfinished = new Set<Promise<void>>();
  private readonly clock: Clock;
  private readonly ioClock: Clock;
  private readonly newAgentId: () => string;
  /** Launch numbers taken by launches still on their way (a double-click must not give two #3s). */
  private readonly launching = new Set<number>();
  private readonly openings: TerminalOpenings; // terminals in the editor area one at a time (terminalOpenings.ts)
  /** Lifecycle: an agent came or went, or left its permission prompt. */
  readonly onDidChange: Event<AgentChange>;
  /** An agent's part may have changed (its transcript, status file, terminal, focus or name). */
  readonly onDidTouch: Event<AgentTouch>;
  /** Transcript events of an agent's current session, as they are read (for the MCP call matcher). */
  readonly onDidReadTranscript: Event<TranscriptEventsRead>;
  readonly onDidReadRecords: Event<RecordsRead>; // everything each agent's follower reads, as it reads it (the session figures)
  readonly restored: Promise<void>; // settles once the first restore has ended, whoever started it (the queue resumes after it)

  constructor(private readonly deps: AgentManagerDeps) {
    this.clock = deps.clock ?? systemClock;
    this.ioClock = deps.ioClock ?? systemClock;
    this.newAgentId = deps.newAgentId ?? randomUUID;
    this.openings = new TerminalOpenings(deps.shellWaitMs);
    const shared = {
      log: deps.log,
      persist: () => this.persist(),
      isDisposed: () => this.disposed,
      createAgent: (init: AgentInit) => this.createAgent(init),
      projectDirFor: (cwd: string) => deps.projectDirFor(cwd),
    };
    this.registry = new AgentRegistry(deps.store, deps.log, deps.terminals.active());
    this.onDidChange = this.registry.onDidChange;
    this.onDidTouch = this.registry.onDidTouch;
    this.onDidReadTranscript = this.registry.onDidReadTranscript;
    this.onDidReadRecords = this.registry.onDidReadRecords;
    this.clearWatch = new ClearWatch({ ...shared, registry: this.registry, clock: this.ioClock, watchFolder: deps.watchFolder ?? projectFolderWatch });
    this.processes = new ProcessBinding({
      ...shared,
      registry: this.registry,
      terminals: deps.terminals,
      monitor: deps.processes,
      adoptTerminals: () => deps.adoptTerminals?.() ?? true,
      newAgentId: this.newAgentId,
      restoring: () => this.restorer.inProgress,
      isAwaited: (shellPid) => this.restorer.isAwaited(shellPid),
    });
    this.restorer = new AgentRestore({
      ...shared,
      registry: this.registry,
      terminals: deps.terminals,
      store: deps.store,
      clock: this.ioClock,
      trackProcess: (terminal) => this.processes.track(terminal),
      removeLaunchFiles: (paths) => this.removeLaunchFiles(paths),
      nameTerminal: (agent) => this.nameTerminal(agent),
      followerOptions: deps.followerOptions,
      isAlive: deps.isProcessAlive,
      watchShell: deps.processes ? (shellPid, listener) => deps.processes!.track(shellPid, listener) : undefined,
    });
    this.owned.add(this.processes); // newest disposed first: the terminal events below, then the restore, then process tracking
    this.owned.add(this.restorer);
    this.restored = this.restorer.restored;
    this.owned.add(
      deps.terminals.onDidOpen((terminal) => {
        void this.restorer.onTerminalOpened(terminal);
        void this.processes.track(terminal);
      }),
    );
    this.owned.add(deps.terminals.onDidClose((terminal) => void this.onTerminalClosed(terminal)));
    this.owned.add(deps.terminals.onDidChangeActive((terminal) => this.registry.setActiveTerminal(terminal)));
    const commandEnds = deps.terminals.onDidEndCommand?.((terminal, ended) => this.onCommandEnded(terminal, ended));
    if (commandEnds) this.owned.add(commandEnds);
  }

  /** The agent's project, current session and terminal, for matching hook requests and MCP calls, and what the panel sends it. */
  agentInfo(agentId: string): { name: string; sessionId: string; index: number; cwd: string; projectDir: string; terminal: TerminalHandle } | undefined {
    const agent = this.registry.get(agentId);
    if (!agent) return undefined;
    return { name: agent.name, sessionId: agent.sessionId, index: agent.index, cwd: agent.cwd, projectDir: agent.projectDir, terminal: agent.terminal };
  }

  /** Every agent with a card, in launch order: bound agents, and saved ones still reconnecting after a reload. */
  agentIds(): string[] {
    const all = [...this.registry.ordered(), ...this.restorer.reconnectingViews()];
    return all.sort((a, b) => a.index - b.index).map((a) => a.id);
  }

  /** One card's agent part as it is now, with what is live on it (the card store composes with it). */
  view(agentId: string, live?: CardLiveFacts): AgentFacts | undefined {
    return this.registry.view(agentId, live) ?? this.restorer.reconnectingViews().find((v) => v.id === agentId);
  }

  /** A terminal running Claude Code in `cwd`, its card there before the transcript; `resume`: `--resume <id>`
   * (a new id the CLI moves to is followed like /clear), or the card already following it is focused. */
  async open(claude: ClaudeCommand, cwd: string, resume?: string): Promise<AgentFacts> {
    if (resume !== undefined && !isSessionId(resume)) throw new Error(`not a Claude Code session id: ${JSON.stringify(resume.slice(0, 80))}`);
    await this.restore();
    const following = resume && this.registry.all().find((a) => a.sessionId === resume);
    if (following) return (this.focus(following.id), following.view(true));
    // Taken synchronously, before the first await below: a second launch started meanwhile sees it.
    const index = Math.max(this.registry.nextIndex(), ...[...this.launching].map((n) => n + 1));
    this.launching.add(index);
    try {
      return await this.launch(claude, cwd, index, resume);
    } finally {
      this.launching.delete(index);
    }
  }

  private async launch(claude: ClaudeCommand, cwd: string, index: number, resume?: string): Promise<AgentFacts> {
    const sessionId = resume ?? (this.deps.newSessionId ?? randomUUID)();
    const agentId = this.newAgentId();
    const extras = await this.launchExtrasFor(agentId, index, { cwd, ...(claude.sandbox ? { sandbox: claude.sandbox } : {}) });
    const launchArgs = [...claude.args, ...extras.args];
    // One name everywhere: the card's and its terminal's (renamed together, rename()).
    const env = worktreeEnv(cwd, index);
    const args = [...launchArgs, resume ? "--resume" : "--session-id", sessionId];
    const spec = { name: agentName(index), cwd, command: claude.command, args, ...(env ? { env } : {}) };
    // Its launch files go if its terminal cannot be opened.
    const dropFiles = async (err: unknown) => (await this.removeLaunchFiles(extras.paths), Promise.reject(err));
    const { terminal, shell } = await this.openings
      .open(() => this.deps.terminals.launch(spec), this.deps.terminals.opensInEditorArea?.() === true)
      .catch(dropFiles);
    const agent = this.createAgent({
      id: agentId,
      name: agentName(index),
      index,
      terminal,
      shellPid: undefined,
      cwd,
      projectDir: this.deps.projectDirFor(cwd),
      sessionId,
      launchFiles: extras.paths,
      launchArgs,
      sandbox: extras,
    });
    this.deps.log.info(`${agent.name}: opened terminal "${terminal.name}" in ${cwd}, ${resume ? "resuming " : ""}session ${sessionId}`);
    await agent.follow(sessionId, resume !== undefined);
    // Not awaited (whenShellBound): five shells in turn (the demo's story), 5–13 s each under load, hid its last card for a minute.
    void this.processes.bindShell(agent, shell).catch((err) => this.deps.log.warn(`${agent.name}: its shell was not followed: ${errorMessage(err)}`));
    return agent.view(this.registry.isFocused(agent));
  }

  /** Settles once a new agent's shell is saved: what a race or the queue saves of its member comes after (a reload finds both). */
  whenShellBound = (agentId: string): Promise<void> => this.processes.whenBound(agentId);
  /** After a reload: whether a saved agent is bound again, or false once its terminal did not come back in the grace (AgentRestore.whenBack). */
  whenBack = (agentId: string): Promise<boolean> => this.restorer.whenBack(agentId);

  /** `claude --resume` again in an exited agent's terminal, with its launch arguments and files. False if not exited. */
  restart(agentId: string, command: string): boolean {
    const agent = this.registry.get(agentId);
    if (!agent || !agent.hasExited) return false;
    agent.terminal.run(command, [...agent.launchArgs, "--resume", agent.sessionId]);
    agent.terminal.show(false);
    this.deps.log.info(`${agent.name}: restarting claude with --resume ${agent.sessionId}`);
    return true;
  }

  focus(agentId: string): void {
    const agent = this.registry.get(agentId);
    if (!agent) return;
    agent.terminal.show(false);
    // The terminal's activation event follows; mark it now so the card answers the click at once.
    this.registry.setActiveTerminal(agent.terminal);
  }

  close(agentId: string): void {
    // Disposing the terminal fires onDidClose, which removes the card: one path for every close.
    this.registry.get(agentId)?.terminal.dispose();
  }

  async rename(agentId: string, name: string): Promise<void> {
    const agent = this.registry.get(agentId);
    const trimmed = name.trim().slice(0, AGENT_NAME_MAX_LENGTH);
    if (!agent || !trimmed || agent.name === trimmed) return;
    agent.name = trimmed;
    this.registry.touch(agent.id);
    await this.persist();
    await this.nameTerminal(agent);
  }

  /** The terminal's tab says the card's name (after a rename, or a reload that lost it). */
  async nameTerminal(agent: Agent): Promise<void> {
    if (agent.terminal.name === agent.name || !agent.terminal.rename) return;
    try {
      await agent.terminal.rename(agent.name);
    } catch (err) {
      this.deps.log.warn(`${agent.name}: could not rename its terminal: ${errorMessage(err)}`);
    }
  }

  /** Re-binds saved agents to their terminals after a reload (agentRestore.ts). Runs once however often it is called. */
  restore(): Promise<void> {
    return this.restorer.restore();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.owned.dispose(); // at once; then what stops asynchronously (followers, /clear watches, launch files), the registry last
    await Promise.all(this.registry.all().map((a) => a.dispose()));
    await this.clearWatch.dispose();
    await Promise.allSettled([...this.unfinished]);
    this.registry.dispose();
  }

  private createAgent(init: AgentInit): Agent {
    const agent = new Agent(
      init,
      {
        clock: this.clock,
        pollClock: this.ioClock,
        ...this.deps.followerOptions,
        onError: (err) => this.deps.log.warn(`${init.name}: reading its transcript failed: ${String(err)}`),
        onWarning: (message) => this.deps.log.warn(`${init.name}: ${message}`),
        onRead: (read) => this.registry.recordsReadBy(init.id, read),
      },
      (changed, previous, events) => {
        // `previous` is undefined while the agent catches up on what is already on disk: history, not news.
        if (this.registry.has(changed.id)) this.registry.touch(changed.id, previous !== undefined);
        this.registry.transcriptRead(changed.id, events);
      },
      () => this.ioClock.now(),
    );
    const known = this.processes.lastStateOf(init.terminal);
    if (known) agent.setProcess(known);
    this.clearWatch.watch(agent.projectDir);
    this.registry.add(agent);
    return agent;
  }

  /** `claude` (not another command typed in the same terminal) ended in an agent's terminal. */
  private onCommandEnded(terminal: TerminalHandle, ended: EndedCommand): void {
    const agent = this.registry.agentOf(terminal);
    if (!agent || !isClaudeCommandLine(ended.commandLine)) return;
    this.deps.log.info(`${agent.name}: claude ended (exit code ${ended.exitCode ?? "unknown"})`);
    if (agent.commandEnded(ended.exitCode, ended.output)) this.registry.touch(agent.id);
  }

  private async onTerminalClosed(terminal: TerminalHandle): Promise<void> {
    this.processes.forget(terminal);
    const agent = this.registry.agentOf(terminal);
    if (!agent) return;
    this.registry.remove(agent);
    this.clearWatch.unwatch(agent.projectDir);
    this.deps.log.info(`${agent.name}: terminal closed; card removed`);
    await this.finishBeforeDispose(async () => {
      // Saved first: a window reload right after must not bring the card back.
      await this.persist();
      await agent.dispose();
      await this.removeLaunchFiles(agent.launchFiles);
    });
  }

  private async launchExtrasFor(agentId: string, index: number, place: LaunchPlace): Promise<LaunchExtras> {
    if (!this.deps.launchExtras) return { args: [], paths: [] };
    try {
      return await this.deps.launchExtras(agentId, place);
    } catch (err) {
      // Claude Code still starts, only without Arcadia's tools and prompts.
      this.deps.log.error(`Agent #${index}: could not write its MCP/hook settings, starting without them: ${errorMessage(err)}`);
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

  private async persist(): Promise<void> {
    // Agents still waiting for their terminal stay saved until they are given up on.
    if (!this.disposed) await this.registry.save(this.restorer.awaitingTerminal);
  }
}
