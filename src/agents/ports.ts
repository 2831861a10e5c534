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
  /** Runs a command line in the terminal (quoted for its shell by the adapter), e.g. a restart. */
  run(command: string, args: string[]): void;
  /** Types `text` at the program's prompt and presses Enter, as a person would (a request the user asked to send). */
  type?(text: string): Promise<void>;
  /** Renames its tab (VS Code: only the active terminal can be renamed; the adapter handles that). */
  rename?(name: string): Promise<void>;
  dispose(): void;
}

export interface LaunchSpec {
  name: string;
  cwd: string;
  /** Executable and arguments, quoted for the terminal's shell by the adapter. */
  command: string;
  args: string[];
  /** Added to the terminal's environment (a worktree agent's number and port offset: core/git worktreeEnv). */
  env?: Record<string, string>;
}

export interface TerminalHost {
  launch(spec: LaunchSpec): TerminalHandle;
  all(): readonly TerminalHandle[];
  active(): TerminalHandle | undefined;
  onDidOpen(listener: (terminal: TerminalHandle) => void): Disposable;
  onDidClose(listener: (terminal: TerminalHandle) => void): Disposable;
  onDidChangeActive(listener: (terminal: TerminalHandle | undefined) => void): Disposable;
  /**
   * A command line run in a terminal ended (VS Code's shell integration, where the shell has it):
   * how `claude` ended, even one that exited before any process listing could see it.
   */
  onDidEndCommand?(listener: (terminal: TerminalHandle, ended: EndedCommand) => void): Disposable;
  /** Arcadia typed text at a terminal's program and pressed Enter (TerminalHandle.type): a prompt submitted. */
  onDidType?(listener: (terminal: TerminalHandle) => void): Disposable;
  /** New terminals open in the editor area (then agents' terminals open one at a time: agent/terminalOpenings.ts). */
  opensInEditorArea?(): boolean;
}

export interface EndedCommand {
  commandLine: string;
  exitCode: number | undefined;
  /** The end of what it printed (escape sequences included). */
  output: string;
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
  /** Folders of the launch files (`--mcp-config`, `--settings`) to remove when the agent goes. */
  launchFiles?: string[];
  /** Arguments given to `claude` besides `--session-id` (for a restart with `--resume`). */
  launchArgs?: string[];
  /** Launched with Claude Code's sandbox on (its `--settings` file, in launchArgs, says so). */
  sandboxed?: boolean;
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

/** The `claude` process under a terminal's shell, from the process table and its live status file. */
export type ClaudeProcessState =
  /** No `claude` under this shell (not started yet, exited, or killed). */
  | { state: "none" }
  | {
      state: "running";
      pid: number;
      sessionId?: string;
      /** From `<config>/sessions/<pid>.json`; undefined until the CLI writes it. */
      status?: "idle" | "busy" | "waiting";
      waitingFor?: string;
      cwd?: string;
      /** When the CLI last changed `status` (ms since the epoch). */
      statusUpdatedAt?: number;
    };

/** Follows the `claude` process of terminals by their shell pid (src/core/process). */
export interface ProcessMonitor {
  track(shellPid: number, listener: (state: ClaudeProcessState) => void): Disposable;
}

/** Per-agent launch files (`--mcp-config`, `--settings`): made before launch, removed with the agent. */
export interface LaunchExtras {
  args: string[];
  /** The files' folders, saved with the binding so they can be removed after a reload. */
  paths: string[];
  /** Its shell commands run in Claude Code's own sandbox (the `--settings` file says so). */
  sandboxed?: boolean;
  /** Meant to be sandboxed, but the sandbox cannot run here: why, and what to install. */
  sandboxMissing?: string;
}

/** Where and how an agent is launched, for its launch files: its folder, and the sandbox choice its launch asked for (else the setting's). */
export interface LaunchPlace {
  cwd: string;
  sandbox?: "on" | "off";
}
