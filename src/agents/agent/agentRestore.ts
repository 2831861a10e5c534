/**
 * After a window reload: saved agents (bindings in workspace state) get their cards back, each
 * bound to its live terminal found by shell pid (never by name alone), its state rebuilt from its
 * transcript's tail. VS Code revives persistent terminals a moment *after* activation, so a saved
 * agent whose terminal is not there yet waits TERMINAL_REVIVAL_GRACE_MS for it before it is dropped.
 */
import { isDeepStrictEqual } from "node:util";
import type { FollowerOptions } from "../../core/engine";
import type { Clock } from "../../core/util";
import type { AgentFacts } from "../../shared/protocol";
import type { Agent, AgentInit } from "./agent";
import type { AgentRegistry } from "./agentRegistry";
import type { AgentBinding, BindingStore, ClaudeProcessState, Disposable, Log, TerminalHandle, TerminalHost } from "../ports";
import { DisposableMap, DisposableObject, errorMessage } from "../../core/util";
import { placeholderView, readTail, reconnectingView, type TranscriptTail } from "./reconnectingCards";

/**
 * After a window reload VS Code brings persistent terminals back a moment after extensions
 * activate — or only when the terminal view is first shown. A saved agent whose terminal is not
 * there yet is checked after this long: dropped if its shell is gone, else waited for again.
 */
export const TERMINAL_REVIVAL_GRACE_MS = 15_000;
/** A reconnecting card re-reads its transcript's tail this often, so it does not go stale. */
export const RECONNECTING_REFRESH_MS = 2_000;

export interface AgentRestoreDeps {
  registry: AgentRegistry;
  terminals: TerminalHost;
  store: BindingStore;
  log: Log;
  clock: Clock;
  projectDirFor(cwd: string): string;
  createAgent(init: AgentInit): Agent;
  /** Starts following the terminal's claude process. */
  trackProcess(terminal: TerminalHandle): Promise<void>;
  removeLaunchFiles(paths: readonly string[]): Promise<void>;
  /** Gives the terminal its card's name again (VS Code forgets it for terminals in the editor area). */
  nameTerminal(agent: Agent): Promise<void>;
  persist(): Promise<void>;
  isDisposed(): boolean;
  /** For reading a reconnecting card's transcript tail. */
  followerOptions?: FollowerOptions;
  /** Whether a process with this pid still runs (the saved shell: its terminal can still come back). */
  isAlive?(pid: number): boolean;
  /** The claude under a saved shell pid, from the process monitor (its status file): a reconnecting card's status. */
  watchShell?(shellPid: number, listener: (state: ClaudeProcessState) => void): Disposable;
}

/** A reconnecting card: its view, what its transcript's tail and its claude said last, its watch on that claude (disposed with it). */
interface Reconnecting extends Disposable {
  view: AgentFacts;
  tail?: TranscriptTail;
  process?: ClaudeProcessState;
  watch?: Disposable;
}

/** Signal 0 tests for existence; EPERM means it exists but is someone else's. */
function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export class AgentRestore extends DisposableObject {
  private restoring: Promise<void> | undefined;
  private markRestored!: () => void;
  /** Settles when the first restore has ended, whoever started it (the queue resumes after it). */
  readonly restored = new Promise<void>((resolve) => (this.markRestored = resolve));
  /** Saved agents whose terminal has not come back (yet) after a reload. */
  private awaiting: AgentBinding[] = [];
  /** Cards of saved agents not bound again yet, by agent id (reconnectingCards.ts); the window going ends their watches. */
  private readonly reconnecting = this._register(new DisposableMap<string, Reconnecting>());
  /** Who waits to know whether a saved agent comes back (whenBack), by agent id. */
  private readonly backWaiters = new Map<string, ((back: boolean) => void)[]>();

  constructor(private readonly deps: AgentRestoreDeps) {
    super();
  }

  /** Saved agents still waiting for their terminal: they stay saved until given up on. */
  get awaitingTerminal(): readonly AgentBinding[] {
    return this.awaiting;
  }

  /** The restore in progress (or done), if one was started. */
  get inProgress(): Promise<void> | undefined {
    return this.restoring;
  }

  /** The cards of saved agents still reconnecting: the panel shows them until they are bound. */
  reconnectingViews(): AgentFacts[] {
    return [...this.reconnecting.values()].map((r) => r.view);
  }

  /**
   * Whether a saved agent is bound again: true once it is; false once the grace passed without its
   * terminal (dropped, or its shell runs where VS Code has not revived it: a terminal made moments
   * before the reload is in no layout VS Code saved, so it may never come back). Its card may still
   * come back later; what waits on it (a race member's task not typed yet) need not wait for that.
   */
  whenBack(agentId: string): Promise<boolean> {
    if (this.deps.registry.has(agentId)) return Promise.resolve(true);
    if (!this.reconnecting.has(agentId) || this.deps.isDisposed()) return Promise.resolve(false);
    return new Promise((resolve) => this.backWaiters.set(agentId, [...(this.backWaiters.get(agentId) ?? []), resolve]));
  }

  private tellBack(agentId: string, back: boolean): void {
    const waiters = this.backWaiters.get(agentId);
    this.backWaiters.delete(agentId);
    for (const resolve of waiters ?? []) resolve(back);
  }

  override dispose(): void {
    for (const agentId of [...this.backWaiters.keys()]) this.tellBack(agentId, false);
    super.dispose();
  }

  isAwaited(shellPid: number | undefined): boolean {
    return this.awaiting.some((b) => b.shellPid === shellPid);
  }

  /** Runs once however often it is called (the webview asks on every show). */
  restore(): Promise<void> {
    this.restoring ??= this.doRestore()
      .catch((err: unknown) => {
        // Not memoized as a failure: the next call (the next time the panel shows) tries again.
        this.restoring = undefined;
        this.deps.log.error(`restoring agents failed: ${errorMessage(err)}`);
      })
      .finally(() => this.markRestored());
    return this.restoring;
  }

  /** A terminal came back after a reload: the saved agent with its shell pid gets its card back. */
  async onTerminalOpened(terminal: TerminalHandle): Promise<void> {
    // During the restore itself, its own final pass matches terminals that open meanwhile.
    await this.restoring?.catch(() => undefined);
    await this.matchAwaiting(terminal);
    await this.deps.persist();
  }

  private async doRestore(): Promise<void> {
    const { registry, terminals, log } = this.deps;
    // Terminals that were there before Arcadia started: their claude may be adopted.
    for (const terminal of terminals.all()) void this.deps.trackProcess(terminal);
    const bindings = this.deps.store.load();
    if (bindings.length === 0) return;
    // Before the first await: a panel that asks now already gets these cards.
    for (const binding of bindings) if (!registry.has(binding.agentId)) this.showReconnecting(binding);
    const all = terminals.all();
    const pids = await Promise.all(all.map((t) => t.processId()));
    const taken = new Set<TerminalHandle>(registry.terminalsInUse());
    for (const binding of bindings) {
      if (registry.has(binding.agentId)) continue;
      const terminal = findTerminal(binding, all, pids, taken);
      if (!terminal) {
        this.awaiting.push(binding);
        continue;
      }
      taken.add(terminal);
      await this.rebind(binding, terminal);
    }
    // Terminals VS Code revived while the above was awaited did not reach onTerminalOpened's
    // list in time: look once more.
    for (const terminal of terminals.all()) await this.matchAwaiting(terminal);
    if (this.awaiting.length > 0) {
      log.info(`waiting up to ${TERMINAL_REVIVAL_GRACE_MS / 1000} s for the terminals of ${this.awaiting.map((b) => b.name).join(", ")}`);
      this.deps.clock.setTimeout(() => void this.giveUpOnTerminals(), TERMINAL_REVIVAL_GRACE_MS);
    }
    await this.deps.persist();
  }

  private async rebind(binding: AgentBinding, terminal: TerminalHandle): Promise<void> {
    this.stopReconnecting(binding.agentId);
    const agent = this.deps.createAgent({
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
      sandbox: { sandboxed: binding.sandboxed === true },
      expectRunning: true,
    });
    this.deps.log.info(`${agent.name}: restored, bound to terminal "${terminal.name}", session ${binding.sessionId}`);
    this.tellBack(binding.agentId, true);
    await agent.follow(binding.sessionId, true);
    void this.deps.trackProcess(terminal);
    void this.deps.nameTerminal(agent);
  }

  /**
   * Its card at once, then as its transcript's tail says (again every few seconds until it is
   * bound) and as its claude's status file says, when the monitor knows it by the saved shell pid.
   */
  private showReconnecting(binding: AgentBinding): void {
    const card: Reconnecting = { view: placeholderView(binding), dispose: () => card.watch?.dispose() };
    this.reconnecting.set(binding.agentId, card);
    // Told like any agent, so the card store (and whoever follows the cards) has it now.
    this.deps.registry.emit({ type: "added", id: binding.agentId });
    this.deps.registry.touch(binding.agentId);
    const show = (): void => {
      if (this.reconnecting.get(binding.agentId) !== card || this.deps.isDisposed() || !card.tail) return;
      const view = reconnectingView(binding, card.tail, card.process);
      const before = card.view;
      card.view = view;
      if (!isDeepStrictEqual(view, before)) this.deps.registry.touch(binding.agentId);
    };
    if (binding.shellPid !== undefined) card.watch = this.deps.watchShell?.(binding.shellPid, (state) => ((card.process = state), show()));
    const refresh = (): void => {
      void readTail(binding, this.deps.projectDirFor(binding.cwd), this.deps.followerOptions ?? {})
        .then((tail) => {
          if (this.reconnecting.get(binding.agentId) !== card || this.deps.isDisposed()) return;
          card.tail = tail;
          show();
          this.deps.clock.setTimeout(refresh, RECONNECTING_REFRESH_MS);
        })
        .catch((err: unknown) => this.deps.log.warn(`${binding.name}: reading its transcript while reconnecting failed: ${errorMessage(err)}`));
    };
    refresh();
  }

  /** Bound again or given up on: its reconnecting card goes, and its watch. Returns whether there was one. */
  private stopReconnecting(agentId: string): boolean {
    return this.reconnecting.deleteAndDispose(agentId);
  }

  private async matchAwaiting(terminal: TerminalHandle): Promise<void> {
    if (this.awaiting.length === 0 || this.deps.registry.agentOf(terminal)) return;
    const pid = await terminal.processId();
    const binding = this.awaiting.find((b) => b.shellPid !== undefined && b.shellPid === pid);
    if (!binding || this.deps.registry.has(binding.agentId)) return;
    this.awaiting = this.awaiting.filter((b) => b !== binding);
    await this.rebind(binding, terminal);
  }

  private async giveUpOnTerminals(): Promise<void> {
    if (this.deps.isDisposed() || this.awaiting.length === 0) return;
    // A shell that still runs is a terminal VS Code has not revived yet (it may wait until the
    // terminal view is shown): keep its card, reconnecting, and look again later.
    const isAlive = this.deps.isAlive ?? processIsAlive;
    const stillThere = this.awaiting.filter((b) => b.shellPid !== undefined && isAlive(b.shellPid));
    this.awaiting = this.awaiting.filter((b) => !stillThere.includes(b));
    for (const binding of [...stillThere, ...this.awaiting]) this.tellBack(binding.agentId, false);
    if (stillThere.length > 0) {
      this.deps.log.info(`still waiting for the terminals of ${stillThere.map((b) => b.name).join(", ")} (their shells run)`);
      this.deps.clock.setTimeout(() => void this.giveUpOnTerminals(), TERMINAL_REVIVAL_GRACE_MS);
    }
    for (const binding of this.awaiting) {
      this.deps.log.info(`${binding.name}: its terminal is gone; dropping it`);
      void this.deps.removeLaunchFiles(binding.launchFiles ?? []);
      if (this.stopReconnecting(binding.agentId)) this.deps.registry.emit({ type: "removed", id: binding.agentId });
    }
    this.awaiting = stillThere;
    await this.deps.persist();
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
