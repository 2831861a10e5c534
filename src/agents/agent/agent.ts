/**
 * One agent: a card bound to one terminal, following that terminal's current session. It owns the
 * follower of its transcript and the current turn's events (for the card's finished tools);
 * everything it shows is derived from those.
 */
import { isDeepStrictEqual } from "node:util";
import { systemClock, type TimerHandle } from "../../core/util";
import type { AgentState, ToolWait } from "../../core/agent";
import { contextUsage, shownRows } from "../../core/agent";
import type { HookTool } from "../../core/hooks";
import { type FollowerOptions, SessionFollower, type TranscriptRead, TurnLog } from "../../core/engine";
import { transcriptPath } from "../../core/transcript";
import type { TranscriptEvent } from "../../core/transcript";
import type { AgentFacts, PromptView, ToolView } from "../../shared/protocol";
import { displayStatus, waitsOnPermission } from "./displayStatus";
import { exitMessage } from "./exitMessage";
import type { AgentBinding, ClaudeProcessState, LaunchExtras, TerminalHandle } from "../ports";
import { toolView } from "./toolView";

export interface AgentInit {
  id: string;
  name: string;
  index: number;
  terminal: TerminalHandle;
  shellPid: number | undefined;
  cwd: string;
  projectDir: string;
  sessionId: string;
  launchFiles?: string[];
  launchArgs?: string[];
  /** Its shell commands run in Claude Code's sandbox (launched so); or why not, when it was meant to. */
  sandbox?: Pick<LaunchExtras, "sandboxed" | "sandboxMissing">;
  /** Restored after a reload: its claude should be running; if the first look finds none, it exited. */
  expectRunning?: boolean;
}

/** What a card shows beyond its transcript and status file: hooks and prompts, given by the card store. */
export interface CardLiveFacts {
  hookTools: readonly HookTool[];
  waits: ReadonlyMap<string, ToolWait>;
  /** PreCompact came for its current session and PostCompact has not. */
  compacting: boolean;
  promptKinds: readonly PromptView["kind"][];
}

export const NO_LIVE_FACTS: CardLiveFacts = { hookTools: [], waits: new Map(), compacting: false, promptKinds: [] };

/**
 * How long a prompt Arcadia submitted counts as taken while the status file has not spoken since:
 * it said busy 0.1–0.7 s after the spinner with three CLIs on this machine, ~5 s in a loaded e2e
 * window. A prompt the CLI took as a paste (not submitted) is idle again after this.
 */
export const SUBMITTED_HOLD_MS = 10_000;

export type AgentChangeListener = (agent: Agent, previous: AgentState | undefined, events: readonly TranscriptEvent[]) => void;

/** What of the status file tells that it was rewritten: its status and when the CLI set it. */
const pick = (p: ClaudeProcessState) => (p.state === "running" ? [p.pid, p.status, p.statusUpdatedAt, p.waitingFor] : p.state);

export class Agent {
  readonly id: string;
  readonly index: number;
  readonly terminal: TerminalHandle;
  readonly cwd: string;
  readonly projectDir: string;
  name: string;
  shellPid: number | undefined;
  readonly launchFiles: readonly string[];
  readonly launchArgs: readonly string[];
  readonly sandboxed: boolean;
  readonly sandboxMissing: string | undefined;
  /** The `claude` process behind the card, when the process monitor knows it. */
  private process: ClaudeProcessState | undefined;
  /** Its `claude` was seen running and is gone now (until it runs again). */
  private exited = false;
  /** What its claude said as it exited, when the terminal told (shell integration). */
  private lastWords: string | null = null;
  private expectRunning: boolean;
  /**
   * Arcadia typed a prompt at its claude and pressed Enter (`over`: the status file's state then),
   * and the status file has not been rewritten since: the CLI draws its spinner at once but writes
   * busy only once its query starts (docs/claude-code-cli.md), so until then the card is working.
   */
  private submitted: { over: ClaudeProcessState; timer: TimerHandle } | undefined;
  private currentSession: string;
  private follower: SessionFollower | undefined;
  private readonly turn = new TurnLog();
  /** When the current transcript last grew, by the follower's clock (for the /clear rule). */
  lastDataAt = Number.NEGATIVE_INFINITY;
  private switching: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(
    init: AgentInit,
    private readonly followerOptions: FollowerOptions,
    private readonly onChange: AgentChangeListener,
    private readonly now: () => number,
  ) {
    this.id = init.id;
    this.name = init.name;
    this.index = init.index;
    this.terminal = init.terminal;
    this.shellPid = init.shellPid;
    this.cwd = init.cwd;
    this.projectDir = init.projectDir;
    this.currentSession = init.sessionId;
    this.launchFiles = init.launchFiles ?? [];
    this.launchArgs = init.launchArgs ?? [];
    this.sandboxed = init.sandbox?.sandboxed === true;
    this.sandboxMissing = init.sandbox?.sandboxMissing;
    this.expectRunning = init.expectRunning ?? false;
  }

  get sessionId(): string {
    return this.currentSession;
  }

  get transcript(): string {
    return transcriptPath(this.projectDir, this.currentSession);
  }

  get state(): AgentState | undefined {
    return this.follower?.state;
  }

  /** A turn is running (for the /clear rule). */
  get busy(): boolean {
    if (this.submitted) return true;
    if (this.process?.state === "running" && this.process.status !== undefined) return this.process.status !== "idle";
    return this.follower?.state.status === "active";
  }

  /** What the process monitor says now. Returns true when the card changes. */
  setProcess(next: ClaudeProcessState): boolean {
    const before = [this.process, this.exited];
    // The CLI's status moved (busy, waiting, idle): its transcript most likely did too. A look now
    // does not wait for a file event, nor for the safety poll, which backs off while a session is
    // quiet and is all there is where file events get lost (the process poll reads status files).
    if (next.state === "running" && (this.process?.state !== "running" || this.process.status !== next.status)) void this.follower?.pump();
    if (next.state === "running") {
      this.exited = false;
      this.lastWords = null;
    } else if (this.process?.state === "running" || (this.process === undefined && this.expectRunning)) {
      // It was running and is gone (exit, crash, kill -9): what it left running is over.
      this.exited = true;
      this.follower?.processExited();
    }
    this.process = next;
    this.expectRunning = false;
    // The status file spoke since the prompt was submitted (busy, or already idle again): it is the truth again.
    const spoke = this.submitted !== undefined && !isDeepStrictEqual(pick(this.submitted.over), pick(next));
    if (spoke || this.exited) this.endSubmitted();
    return spoke || !isDeepStrictEqual([this.process, this.exited], before);
  }

  /**
   * Arcadia typed a prompt at this agent's idle claude and pressed Enter (TerminalHost.onDidType).
   * It shows working until its status file is rewritten, for SUBMITTED_HOLD_MS at most. Returns
   * true when the card changes.
   */
  promptSubmitted(): boolean {
    const process = this.process;
    if (this.disposed || this.exited || process?.state !== "running" || process.status !== "idle") return false;
    this.submitted?.timer.cancel();
    const clock = this.followerOptions.clock ?? systemClock;
    const timer = clock.setTimeout(() => {
      if (this.submitted?.timer !== timer) return;
      this.submitted = undefined;
      if (!this.disposed) this.onChange(this, undefined, []);
    }, SUBMITTED_HOLD_MS);
    this.submitted = { over: process, timer };
    return true;
  }

  private endSubmitted(): void {
    this.submitted?.timer.cancel();
    this.submitted = undefined;
  }

  /**
   * The `claude` command line in its terminal ended (shell integration): it exited, whether or not
   * a process listing ever saw it (one that fails at start-up lives ~100 ms). Returns true when
   * the card changes.
   */
  commandEnded(exitCode: number | undefined, output: string): boolean {
    const before = [this.exited, this.lastWords];
    this.endSubmitted();
    if (!this.exited) {
      this.exited = true;
      this.follower?.processExited();
    }
    this.expectRunning = false;
    this.lastWords = exitCode === 0 ? null : exitMessage(output, exitCode);
    return !isDeepStrictEqual([this.exited, this.lastWords], before);
  }

  /** The session the CLI itself says it is in (exact; changes on /clear), if known. */
  get processSessionId(): string | undefined {
    return this.process?.state === "running" ? this.process.sessionId : undefined;
  }

  /** The CLI says it waits on a permission prompt (exact, from its status file). */
  get waitingOnPermission(): boolean {
    return waitsOnPermission(this.process);
  }

  get hasExited(): boolean {
    return this.exited;
  }

  /**
   * Follows `sessionId` from now on. A previous session is ended first (what was open in it is
   * closed). `restore`: rebuild from the transcript's tail (after a reload) rather than read it all.
   */
  follow(sessionId: string, restore: boolean): Promise<void> {
    // One switch at a time: two quick /clears must not leave a second follower running.
    this.switching = this.switching.then(() => this.switchTo(sessionId, restore));
    return this.switching;
  }

  private async switchTo(sessionId: string, restore: boolean): Promise<void> {
    if (this.disposed || (this.follower && sessionId === this.currentSession)) return;
    if (this.follower) await this.follower.endSession();
    if (this.disposed) return;
    this.currentSession = sessionId;
    this.turn.clear();
    // A deleted or rewritten transcript takes its turn's rows with it (before the state resets, so
    // the change that follows shows neither).
    // working: its status file says busy before its transcript does (the poll then looks every second).
    // Reads are handed on only while this is the agent's follower (a stopped one may finish a read).
    const onRead = this.followerOptions.onRead;
    const follower: SessionFollower = new SessionFollower(this.transcript, {
      ...this.followerOptions,
      restore,
      working: () => this.busy,
      onReset: () => this.turn.clear(),
      ...(onRead ? { onRead: (read: TranscriptRead) => void (follower === this.follower && onRead(read)) } : {}),
    });
    this.follower = follower;
    // While catching up on what is already on disk, a turn seen to end is history, not news.
    let caughtUp = false;
    let previous: AgentState | undefined = follower.state;
    follower.onDidChange(({ state, events }) => {
      if (follower !== this.follower) return;
      if (events.length > 0) this.lastDataAt = this.now();
      this.turn.add(events);
      this.onChange(this, caughtUp ? previous : undefined, events);
      previous = state;
    });
    await follower.start();
    caughtUp = true;
    // Its claude was already gone when this session was read (e.g. killed during a window reload).
    if (this.exited && follower === this.follower) follower.processExited();
    if (this.disposed) await follower.stop();
    else this.onChange(this, undefined, []);
  }

  /** The card's agent part, with what is live on it (`live`: hooks, waits, prompts) passed in by the card store. */
  view(focused: boolean, live: CardLiveFacts = NO_LIVE_FACTS): AgentFacts {
    const state = this.follower?.state;
    const follower = this.follower;
    const status = this.process?.state === "running" ? this.process.status : undefined;
    const rows = shownRows(this.turn.events, state, {
      sessionId: this.currentSession,
      hookTools: this.exited ? [] : live.hookTools,
      waits: live.waits,
      parentOfSubagent: (subagentId) => follower?.parentOfSubagent(subagentId),
      // The status file when there is one (exact), else the transcript.
      idle: this.exited || (this.submitted === undefined && (status !== undefined ? status === "idle" : state?.status === "waiting")),
      idleSince: status === "idle" && this.process?.state === "running" ? (this.process.statusUpdatedAt ?? Number.NEGATIVE_INFINITY) : undefined,
      waitingOnPermission: waitsOnPermission(this.process),
    });
    const tools: ToolView[] = rows.map((row) => toolView(row, this.sandboxed));
    const runningTools = rows.filter((r) => r.outcome === "running").map((r) => r.name);
    const facts = { promptKinds: live.promptKinds, compacting: live.compacting, runningTools, submitted: this.submitted !== undefined };
    const shown = displayStatus(state, this.process, this.exited, facts);
    return {
      id: this.id,
      name: this.name,
      index: this.index,
      status: shown.status,
      lastTurn: state?.lastTurn ?? "none",
      tools,
      focused,
      retry: state?.retry ? { message: state.retry.message, attempt: state.retry.attempt, maxRetries: state.retry.maxRetries } : null,
      context: contextUsage(state?.usage ?? null),
      statusSource: shown.source,
      needsYou: shown.needsYou,
      reconnecting: false,
      exitMessage: this.exited ? this.lastWords : null,
      ...(this.sandboxed ? { sandboxed: true } : {}),
      ...(this.sandboxMissing ? { sandboxMissing: this.sandboxMissing } : {}),
    };
  }

  binding(): AgentBinding {
    return {
      agentId: this.id,
      name: this.name,
      index: this.index,
      sessionId: this.currentSession,
      cwd: this.cwd,
      shellPid: this.shellPid,
      terminalName: this.terminal.name,
      launchFiles: [...this.launchFiles],
      launchArgs: [...this.launchArgs],
      ...(this.sandboxed ? { sandboxed: true } : {}),
    };
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.endSubmitted();
    const follower = this.follower;
    this.follower = undefined;
    await follower?.stop();
  }
}
