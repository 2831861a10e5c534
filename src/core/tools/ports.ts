/**
 * What Arcadia's MCP tools need from their host, as small interfaces: VS Code implements them in
 * src/vscode/tools, plain Node in nodeWorkspaceFiles.ts and test/support (the tests and the rig).
 * All paths are absolute file-system paths.
 */
import type { ApprovalQueue } from "../mcp";
import type { CommandSandbox, SandboxLaunch } from "../sandbox";

/** What a write must find when it happens, recorded when the change was shown for review. */
export interface WriteTarget {
  /** The file (a real path, as checked). */
  path: string;
  /** The deepest folder on its way that existed at review time… */
  anchor: string;
  /** …and that folder's identity then. */
  anchorId: { dev: bigint; ino: bigint };
  /** Folders to create below the anchor (in order) before the file. */
  missing: string[];
}

export type CommandApprovalMode = "always" | "never" | "unlessAllowListed";

/** Whether commands ask (commandApproval.ts decides by these). */
export interface CommandApprovalSettings {
  mode: CommandApprovalMode;
  allowed: readonly string[];
}

// ── Commands ────────────────────────────────────────────────────────────────────────────────

export interface StartCommand {
  command: string;
  /** Absolute folder to run in. */
  cwd: string;
  /** The agent asking: the host runs its commands in that agent's own terminal. */
  agentId?: string;
  /**
   * The program and its arguments, run as they are with no shell (an allow-listed command, as the
   * policy checked it; argv[0] a path). Absent: `command` runs through the user's shell.
   */
  argv?: readonly string[];
  /** Run inside this sandbox (bubblewrap), the program or shell as above inside it. */
  sandbox?: SandboxLaunch;
}

/** How a command ended, as far as the host can tell. */
export type CommandEnd =
  /** It ended; `exitCode` undefined when the shell did not report one. */
  | { kind: "exited"; exitCode: number | undefined }
  /** The terminal was closed (or its process died) while the command ran. */
  | { kind: "terminalClosed" }
  /** No shell integration: the command was typed into the terminal, nothing can be read back. */
  | { kind: "notCaptured" };

export interface CommandHandle {
  /** Also the tracker's terminalId for this call: interrupt / partialOutput take it. */
  id: string;
  /** A name the user can find the command under, e.g. the terminal's name. */
  where: string;
  ended: Promise<CommandEnd>;
}

export interface PartialOutput {
  output: string;
  /** False when there was no shell integration to read the output with. */
  captured: boolean;
}

export interface CommandRunner {
  /** Starts the command in a terminal the user can see. Rejects if it cannot be started at all. */
  start(request: StartCommand): Promise<CommandHandle>;
  /** Ctrl+C to the command (harmless once it ended). */
  interrupt(id: string): void;
  /** What the command printed so far (readable while it runs, and after it ended until released). */
  partialOutput(id: string): PartialOutput;
  /** The call is over: the output buffer can go. */
  release(id: string): void;
  /**
   * Resolves once the command no longer runs (at once for one that ended, or that the runner does
   * not know). A command can outlive its call: Complete answers with the output so far and leaves it running.
   */
  whenEnded?(id: string): Promise<void>;
}

// ── Files ──────────────────────────────────────────────────────────────────────────────────

export type EntryType = "file" | "directory" | "other";

export interface FileStat {
  type: EntryType;
  size: number;
}

export interface DirEntry {
  name: string;
  /** What it is, through a symlink. */
  type: EntryType;
  /** A symlink: a recursive listing does not go through it (it may lead out of the workspace, or in circles). */
  symlink?: boolean;
}

export interface WorkspaceFiles {
  /** The workspace folders, in order (the first one is the default base for relative paths). */
  folders(): readonly string[];
  /** Symlinks resolved. Rejects (code ENOENT) when the path does not exist. */
  realpath(path: string): Promise<string>;
  /** Undefined when nothing is there. */
  stat(path: string): Promise<FileStat | undefined>;
  /**
   * `path` is a real path (as paths.ts resolved it). Refused (checkedOpen.ts PathChangedError)
   * when, at the moment of reading, a link on it leads elsewhere: never reads another file.
   */
  readFile(path: string): Promise<Uint8Array>;
  /**
   * Writes exactly the file recorded when the change was shown for review (checkedOpen.ts
   * writeTargetOf): same folder (identity), missing folders created without following links, the
   * file never a link. Refused (PathChangedError) otherwise.
   */
  writeFile(target: WriteTarget, data: Uint8Array): Promise<void>;
  /** `path` is a real path; refused (PathChangedError) when it leads elsewhere at the moment of reading. */
  readDirectory(path: string): Promise<DirEntry[]>;
  /**
   * Files under `root` (absolute paths), at most `limit`, skipping what a workspace search skips
   * (.git, node_modules, the user's excludes). `glob` is relative to root, e.g. `**\/*.ts`.
   */
  findFiles(root: string, glob: string | undefined, limit: number): Promise<string[]>;
}

// ── Writes ─────────────────────────────────────────────────────────────────────────────────

export type DiffDecision = "accept" | "reject";

export interface ProposeChange {
  path: string;
  /** The file's current text; undefined for a new file. */
  original: string | undefined;
  proposed: string;
  /** Why, in a line (shown with the diff): e.g. "Agent #1: apply_diff (2 edits)". */
  title: string;
  agentId?: string;
  callId?: string;
}

export interface DiffReviewer {
  /** Shows the proposal as a diff with Accept / Reject; the promise settles on the user's answer. */
  propose(change: ProposeChange): { id: string; decision: Promise<DiffDecision> };
  /** From the panel (Complete): as if the user clicked Accept. Harmless once decided. */
  accept(id: string): void;
  /** From the panel (Cancel): as if the user clicked Reject. Harmless once decided. */
  reject(id: string): void;
}

// ── Problems and editors ───────────────────────────────────────────────────────────────────

export type Severity = "error" | "warning" | "information" | "hint";

export interface Diagnostic {
  severity: Severity;
  message: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  source?: string;
  code?: string;
}

export interface DiagnosticsSource {
  /** The problems of one file, or of every file that has some when `path` is undefined. */
  get(path?: string): { path: string; diagnostics: Diagnostic[] }[];
}

export interface EditorOpener {
  /** Opens the file in an editor, revealing `line` (1-based) when given. */
  open(path: string, line?: number): Promise<void>;
}

// ── The calling agent ──────────────────────────────────────────────────────────────────────

/**
 * What the calling agent's card says of it, as far as a tool may tell the agent itself. The host
 * hands the card itself (src/shared's CardView has every field, in the same shape): a new fact
 * a tool tells is a field here and on the card, nothing else.
 */
export interface AgentCardFacts {
  name: string;
  /** "starting" | "active" | "waiting" | "needsYou" | "compacting" | "exited" (the card's status). */
  status: string;
  /** Context-window use from the newest reply's usage, against the model's window. */
  context: { usedTokens: number; windowTokens: number } | null;
  /** Its session's tokens and estimated cost in USD (null until read). */
  usage?: { tokens: { input: number; output: number; cacheRead: number; cacheWrite: number }; costUsd: number; unpricedModels: string[] } | null;
  /** Its own worktree, when it has one. */
  worktree: { branch: string; base: string } | null;
  /** The branch checked out where it works. */
  branch?: string | null;
  /** "Usage limit reached — resets at 14:00" while a limit stops it. */
  limit?: string | null;
  /** Its budget as the card says it (arcadia.budget.*): absent or null while none applies. */
  budget?: {
    /** "Paused at budget — $5.02 of $5.00" while its tool calls are denied. */
    paused: string | null;
    /** "$1.20 of $5.00", "$1.20 (no cap)", "unknown (nothing priced yet)". */
    spent: string;
    rate: string | null;
    eta: string | null;
    /** Why a sub-agent was denied, until it is idle. */
    brake: string | null;
    /** "race fix-title: $0.40 of $0.50": what its race spent of the race's cap; absent or null outside a race. */
    group?: string | null;
  } | null;
}

// ── All of it ──────────────────────────────────────────────────────────────────────────────

export interface ToolPorts {
  files: WorkspaceFiles;
  commands: CommandRunner;
  diffs: DiffReviewer;
  diagnostics: DiagnosticsSource;
  editor: EditorOpener;
  approvals: ApprovalQueue;
  /**
   * The command approval settings, read on every call (a change applies at once). The decision
   * itself is core's (commandApproval.ts): it looks at the text and at the disk.
   */
  commandApproval: () => CommandApprovalSettings;
  /** The folder an agent works in (relative paths resolve against it), when the host knows it. */
  agentCwd?: (agentId: string) => string | undefined;
  /** The agent's card as the panel shows it now, when the host has one (a tool telling an agent about itself). */
  agentCard?: (agentId: string) => AgentCardFacts | undefined;
  /**
   * Where commands that run unasked are confined (core/sandbox). Absent: this host has none, and
   * only read-only commands run unasked.
   */
  sandbox?: CommandSandbox;
  /** The user's home folder (default: the process's): a workspace at or above it runs no command unasked. */
  home?: string;
}
