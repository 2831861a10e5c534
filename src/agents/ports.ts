/**
 * What the agent manager needs from VS Code, as small interfaces: the manager is tested in plain
 * Node against fakes of these, and src/vscode/ adapts the real API to them.
 */

export interface Disposable {
  dispose(): void;
}

/** One VS Code terminal. */
export interface TerminalHandle {
  readonly name: string;
  /** The shell's pid: survives a window reload (persistent terminals), unlike object identity. */
  processId(): Promise<number | undefined>;
  show(preserveFocus?: boolean): void;
  dispose(): void;
}

export interface LaunchSpec {
  name: string;
  cwd: string;
  /** Executable and arguments, quoted for the terminal's shell by the adapter. */
  command: string;
  args: string[];
}

export interface TerminalHost {
  launch(spec: LaunchSpec): TerminalHandle;
  all(): readonly TerminalHandle[];
  active(): TerminalHandle | undefined;
  onDidOpen(listener: (terminal: TerminalHandle) => void): Disposable;
  onDidClose(listener: (terminal: TerminalHandle) => void): Disposable;
  onDidChangeActive(listener: (terminal: TerminalHandle | undefined) => void): Disposable;
}

/** What survives a window reload: one entry per agent. */
export interface AgentBinding {
  agentId: string;
  name: string;
  index: number;
  sessionId: string;
  cwd: string;
  /** The terminal's shell pid, the key to find the terminal again after a reload. */
  shellPid: number | undefined;
  terminalName: string;
}

export interface BindingStore {
  load(): AgentBinding[];
  save(bindings: AgentBinding[]): Promise<void>;
}

export interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
