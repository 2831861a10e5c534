/** An in-memory TerminalHost: terminals are launched, focused and closed by the test. */
import type {
  AgentBinding,
  BindingStore,
  ClaudeProcessState,
  Disposable,
  EndedCommand,
  LaunchSpec,
  Log,
  ProcessMonitor,
  TerminalHandle,
  TerminalHost,
} from "../../src/agents/ports";

export class FakeTerminal implements TerminalHandle {
  shown = 0;
  disposed = false;
  constructor(
    private readonly host: FakeTerminalHost,
    public name: string,
    public pid: number | undefined,
    readonly spec?: LaunchSpec,
  ) {}
  /** Set while its shell has not started (FakeTerminalHost.shellOnlyInFront, noShells): processId waits for it. */
  shell: Promise<number | undefined> | undefined;
  /** Starts its held shell: processId resolves. */
  startShell: () => void = () => undefined;
  async processId(): Promise<number | undefined> {
    return this.shell ?? this.pid;
  }
  /** Command lines run in it after launch (e.g. a restart). */
  readonly ran: { command: string; args: string[] }[] = [];
  run(command: string, args: string[]): void {
    this.ran.push({ command, args });
  }
  show(): void {
    this.shown++;
    this.host.setActive(this);
  }
  async rename(name: string): Promise<void> {
    this.name = name;
  }
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.host.close(this);
  }
}

export class FakeTerminalHost implements TerminalHost {
  readonly terminals: FakeTerminal[] = [];
  private current: FakeTerminal | undefined;
  private nextPid = 4000;
  private readonly closeListeners = new Set<(t: TerminalHandle) => void>();
  private readonly openListeners = new Set<(t: TerminalHandle) => void>();
  private readonly activeListeners = new Set<(t: TerminalHandle | undefined) => void>();

  /**
   * VS Code with terminals in the editor area at a new window's start (persistent sessions on): a
   * terminal gets its shell a moment after it opens only if it is still the newest (in front); one
   * that another opened in front of meanwhile never gets a shell (no process id, ever).
   */
  shellOnlyInFront = false;
  /** No shell starts for a terminal launched from now on, until the test starts it (FakeTerminal.startShell). */
  noShells = false;
  /** New terminals open in the editor area (TerminalHost.opensInEditorArea). */
  editorArea = false;
  opensInEditorArea(): boolean {
    return this.editorArea;
  }

  launch(spec: LaunchSpec): FakeTerminal {
    const terminal = new FakeTerminal(this, spec.name, this.nextPid++, spec);
    if (this.noShells || this.shellOnlyInFront) terminal.shell = new Promise((resolve) => (terminal.startShell = () => resolve(terminal.pid)));
    if (this.shellOnlyInFront) setTimeout(() => this.terminals.at(-1) === terminal && terminal.startShell(), 20);
    this.terminals.push(terminal);
    for (const l of this.openListeners) l(terminal);
    // VS Code focuses a new terminal it shows.
    this.setActive(terminal);
    return terminal;
  }

  /** A terminal that already exists (e.g. after a reload), not launched through the host. */
  adopt(name: string, pid: number | undefined): FakeTerminal {
    const terminal = new FakeTerminal(this, name, pid);
    this.terminals.push(terminal);
    return terminal;
  }

  /** A terminal VS Code brings back after the extension started (persistent sessions). */
  revive(name: string, pid: number | undefined): FakeTerminal {
    const terminal = this.adopt(name, pid);
    for (const l of this.openListeners) l(terminal);
    return terminal;
  }

  onDidOpen(listener: (t: TerminalHandle) => void): Disposable {
    this.openListeners.add(listener);
    return { dispose: () => this.openListeners.delete(listener) };
  }

  all(): readonly TerminalHandle[] {
    return this.terminals.filter((t) => !t.disposed);
  }
  active(): TerminalHandle | undefined {
    return this.current;
  }
  setActive(terminal: FakeTerminal | undefined): void {
    this.current = terminal;
    for (const l of this.activeListeners) l(terminal);
  }
  close(terminal: FakeTerminal): void {
    terminal.disposed = true;
    if (this.current === terminal) this.current = undefined;
    for (const l of this.closeListeners) l(terminal);
  }
  onDidClose(listener: (t: TerminalHandle) => void): Disposable {
    this.closeListeners.add(listener);
    return { dispose: () => this.closeListeners.delete(listener) };
  }
  onDidChangeActive(listener: (t: TerminalHandle | undefined) => void): Disposable {
    this.activeListeners.add(listener);
    return { dispose: () => this.activeListeners.delete(listener) };
  }
  private readonly endListeners = new Set<(t: TerminalHandle, ended: EndedCommand) => void>();
  onDidEndCommand(listener: (t: TerminalHandle, ended: EndedCommand) => void): Disposable {
    this.endListeners.add(listener);
    return { dispose: () => this.endListeners.delete(listener) };
  }
  /** A command line ended in `terminal`, as shell integration reports it. */
  endCommand(terminal: FakeTerminal, ended: EndedCommand): void {
    for (const l of this.endListeners) l(terminal, ended);
  }
  private readonly typeListeners = new Set<(t: TerminalHandle) => void>();
  onDidType(listener: (t: TerminalHandle) => void): Disposable {
    this.typeListeners.add(listener);
    return { dispose: () => this.typeListeners.delete(listener) };
  }
  /** Arcadia typed a prompt into `terminal` and pressed Enter (what TerminalHandle.type reports). */
  typed(terminal: TerminalHandle): void {
    for (const l of this.typeListeners) l(terminal);
  }
}

export class MemoryStore implements BindingStore {
  constructor(public bindings: AgentBinding[] = []) {}
  load(): AgentBinding[] {
    return this.bindings.map((b) => ({ ...b }));
  }
  async save(bindings: AgentBinding[]): Promise<void> {
    this.bindings = bindings.map((b) => ({ ...b }));
  }
}

export function memoryLog(): Log & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => void lines.push(m),
    warn: (m) => void lines.push(`WARN ${m}`),
    error: (m) => void lines.push(`ERROR ${m}`),
  };
}

/** A ProcessMonitor the test drives: what the process table and status files would report. */
export class FakeProcessMonitor implements ProcessMonitor {
  private readonly listeners = new Map<number, Set<(state: ClaudeProcessState) => void>>();
  private readonly states = new Map<number, ClaudeProcessState>();

  track(shellPid: number, listener: (state: ClaudeProcessState) => void): Disposable {
    let set = this.listeners.get(shellPid);
    if (!set) this.listeners.set(shellPid, (set = new Set()));
    set.add(listener);
    listener(this.states.get(shellPid) ?? { state: "none" });
    return { dispose: () => set.delete(listener) };
  }

  tracking(shellPid: number): boolean {
    return (this.listeners.get(shellPid)?.size ?? 0) > 0;
  }

  report(shellPid: number, state: ClaudeProcessState): void {
    this.states.set(shellPid, state);
    for (const listener of this.listeners.get(shellPid) ?? []) listener(state);
  }
}
