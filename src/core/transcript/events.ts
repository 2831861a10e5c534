/**
 * The normalized events the engine derives from transcript records. Every tool that starts is
 * explicitly ended by a `toolEnd` — from its own result, or synthesized when an interrupt, a new
 * prompt, a turn end or the end of the session closes it — so consumers never have to guess.
 * One tool ends once, except that a result read after the tool was closed `orphaned`/`unknown`
 * sends a second, `revised` toolEnd with the recorded outcome.
 */

/**
 * How a tool call ended. `denied`: a permission rule or hook said no, or one of Arcadia's own
 * approvals was denied (its result says `"status":"denied"`). `interrupted`: Escape, or a prompt
 * answered "No" (the CLI writes both alike: see core/agent/hookRows.ts for how a card tells them apart).
 * `orphaned`: closed without a result (its turn or session ended). `unknown`: closed without a
 * result while a line too large to read (> 64 MB) was dropped since it started: its result was
 * most likely in that line, so it ended, but how is not known.
 */
/** Every way a tool can end, as a value: `arcadia replay --json` documents each (README, tested). */
export const TOOL_OUTCOMES = ["done", "error", "interrupted", "denied", "orphaned", "unknown"] as const;
export type ToolOutcome = (typeof TOOL_OUTCOMES)[number];

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  model?: string;
}

interface Base {
  /** Record timestamp in ms since the epoch, when the record had a valid one. */
  at?: number;
}

export type TranscriptEvent =
  /** At most once per tool id in a session (see TranscriptInterpreter.startedIds). */
  | (Base & {
      kind: "toolStart";
      id: string;
      name: string;
      input: unknown;
      label: string;
      /** The bare deed, for after a verdict ("touch x" of "Running: touch x"): core/labels/toolLabels.ts. */
      action: string;
      /** The `Agent`/`Task` call that owns this tool (sub-agent tools), else null. */
      parent: string | null;
    })
  | (Base & {
      kind: "toolEnd";
      id: string;
      outcome: ToolOutcome;
      parent: string | null;
      /** The result came after the tool had been closed without one: this outcome replaces that. */
      revised?: true;
    })
  /** An `Agent` call returned at once and its sub-agent runs on in the background. */
  | (Base & { kind: "backgroundLaunch"; id: string })
  /** A new turn starts: a prompt typed by the user, or a background task reporting back. */
  | (Base & { kind: "prompt"; text: string; source: "user" | "task-notification" })
  | (Base & { kind: "turnEnd"; durationMs?: number })
  | (Base & { kind: "interrupt"; forToolUse: boolean })
  | (Base & {
      kind: "apiError";
      status?: number;
      message: string;
      retryInMs?: number;
      retryAttempt?: number;
      maxRetries?: number;
      /** A synthetic error reply that ends the turn (no more retries). */
      final: boolean;
    })
  | (Base & { kind: "compaction"; trigger?: string })
  | (Base & { kind: "slashCommand"; name: string; args: string })
  /** A local command (e.g. `/clear`, `/model`) finished without involving the model. */
  | (Base & { kind: "localCommandDone" })
  /**
   * Assistant text at the agent's own level (not a sub-agent's). `stopReason` is the reply's, when
   * the record carries it: "tool_use" means tool calls follow, so this text does not end the turn.
   */
  /**
   * `toolsHoldTurn`: a tool that is not a background agent's was open when the text came, so the
   * turn goes on (the interpreter's index says so; without it the reducer looks at its tools).
   */
  | (Base & { kind: "assistantText"; text: string; stopReason: string | null; toolsHoldTurn?: boolean })
  | (Base & { kind: "usage"; usage: TokenUsage })
  /** The session is over (the agent moved to another session, or the process ended). */
  | (Base & { kind: "sessionEnd" });
