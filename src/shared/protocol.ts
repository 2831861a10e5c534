/**
 * The views the extension sends its webview pages (a card, a session's row, a reader's item…),
 * and the panel's pushes (ExtensionMessage). Each page's protocol — what it asks, what it is sent,
 * the schema of its messages — is in protocols/ (panel.ts, sessions.ts, reader.ts, compare.ts).
 * The webview imports only types from here, so nothing of the extension reaches its bundle.
 */
import type { AgentStatusView, TurnOutcomeView } from "./agentStatusView";
import type { RaceTagView } from "./raceViews";

export { AGENT_NAME_MAX_LENGTH } from "./agentName";
export type { AgentStatusView, TurnOutcomeView } from "./agentStatusView";
export type { CompareCheckView, CompareFileView, CompareMemberView, RaceCompareView, RaceTagView } from "./raceViews";
export type { SessionRowView } from "./sessionViews";

/** A tool call as a card shows it. `parent`: the Subtask (Agent/Task call) it runs under. */
export interface ToolView {
  id: string;
  name: string;
  /**
   * The row's words, whole, as the extension's one rule makes them for live and restored cards
   * alike (core/labels/toolLabels.ts rowLabel): "Running: npm test" (once done: "npm test"), "Denied: touch x", "Waiting for
   * you: touch x". The panel shows them as they are and adds no verdict of its own.
   */
  label: string;
  parent: string | null;
  /**
   * `waiting`: its prompt is up (Claude's permission prompt, an approval, a diff): nothing runs yet.
   * `denied`: a permission prompt or an approval said no. `interrupted`: Escape, or the process
   * died, while it ran. `orphaned`: it ended without a result (its turn ended, or the agent went
   * idle with it unfinished). `unknown`: ended, output unknown (its result's record was too large to read).
   */
  outcome: "running" | "waiting" | "done" | "error" | "interrupted" | "denied" | "orphaned" | "unknown";
  /** A background sub-agent's call: runs on after its turn ended. */
  background: boolean;
  /** ms since the epoch (its PreToolUse hook, else the transcript); the webview ticks elapsed time itself. */
  startedAt?: number;
  endedAt?: number;
  /**
   * It waited this long (ms) for the user (Claude's permission prompt or an Arcadia approval)
   * before it ran: its own running time starts at `startedAt + waitedMs`. Absent: it never waited.
   * While the prompt is still open the row's prompt says so; this is set once it was answered.
   */
  waitedMs?: number;
  /**
   * A sandboxed agent's shell command: `unasked`, it ran in Claude Code's sandbox with nobody asked;
   * `askedToLeave`, it asked to run outside it (core/agentSandbox/sandboxMark.ts).
   */
  sandbox?: "unasked" | "askedToLeave";
}

/**
 * One agent's card: the one model the panel, the status bar and notifications show, owned by one
 * card store (src/agents/cards/cardStore.ts) and sent whole when it changes. Its first part is what the
 * agent's transcript, status file and terminal say (src/agents/agent/agent.ts); the rest is what is live
 * beyond the transcript (src/agents/cards/liveBoard.ts, each from its own source).
 */
export interface CardView {
  id: string;
  /** "Agent #n" until renamed. */
  name: string;
  /** Launch order, 1-based; cards are shown in this order. */
  index: number;
  status: AgentStatusView;
  /** How the last finished turn ended (shown while waiting). */
  lastTurn: TurnOutcomeView;
  /** The current turn's tools, finished and running, plus background sub-agents still running. */
  tools: ToolView[];
  /** Its terminal is the active terminal. */
  focused: boolean;
  /** The API error being retried right now, if any. */
  retry: { message: string; attempt?: number; maxRetries?: number } | null;
  /** Context-window use from the newest reply's usage (input + cache + output), against the model's window. */
  context: { usedTokens: number; windowTokens: number } | null;
  /**
   * Where `status` comes from: the CLI's live status file (exact), the transcript (inferred), or a
   * prompt Arcadia just submitted that the status file has not told of yet (working, not confirmed).
   */
  statusSource: "process" | "transcript" | "submitted";
  /** What waits on the user when `status` is `needsYou`; null otherwise. */
  needsYou: NeedsYouView | null;
  /** Restored after a window reload and not bound to its terminal's claude again yet. */
  reconnecting: boolean;
  /** `claude` exited (status `exited`): what it said last, e.g. "error: unknown option '--modle'". */
  exitMessage: string | null;
  /** Launched with Claude Code's sandbox for its shell commands (arcadia.agentSandbox). */
  sandboxed?: boolean;
  /** Meant to run sandboxed, but the sandbox cannot run here: why, and what to install. */
  sandboxMissing?: string;
  /** Arcadia MCP calls in flight (Cancel / Complete). */
  calls: LiveCallView[];
  prompts: PromptView[];
  sharedFiles: SharedFileView[];
  /** Set for an agent working in a git worktree of its own. */
  worktree: WorktreeView | null;
  /** The branch checked out where it works (git's HEAD; a short commit id when detached), for every agent in a repository. */
  branch?: string | null;
  /** Files it changed in this session (null: none). */
  sessionEdits: SessionEditsView | null;
  /** Its session's tokens and estimated cost (null until read). */
  usage?: SessionUsageView | null;
  /** "Usage limit reached — resets at 14:00" while its session is stopped by a limit. */
  limit?: string | null;
  /** The session's turns before the current one, oldest first (the newest few). */
  history?: TurnSummaryView[];
  /** Commands its calls left running after Complete ("Completed early — still running", with Stop). */
  stillRunning?: StillRunningView[];
  /** Review comments on its changes (absent or null: none open). */
  reviewComments?: ReviewCommentsView | null;
  /** The race it runs in (Run on Several Agents…), if any. */
  race?: RaceTagView | null;
  /** Its budget (arcadia.budget.*): shown while a cap applies, a brake held, or it spends. */
  budget?: BudgetView | null;
}

/** An agent's budget as its card says it (src/agents/budget/budgetBook.ts). */
export interface BudgetView {
  /** "Paused at budget — $5.02 of $5.00" while its tool calls are denied (Raise… and Stop beside it). */
  paused: string | null;
  /** "$1.20 of $5.00", "$1.20 (no cap)", "unknown (nothing priced yet)", "$1.20 + unpriced tokens of …". */
  spent: string;
  /** "$3.00/h", once a minute of spending is seen. */
  rate: string | null;
  /** "at this rate the cap is reached in 25 min". */
  eta: string | null;
  /** "A 6th sub-agent was denied: at most 5 run at once (arcadia.budget.maxSubagents)", until it is idle. */
  brake: string | null;
  /** "race fix-title: $0.40 of $0.50": what all the members of its race spent, against the race's cap; null: not in a race. */
  group: string | null;
  /** In a race: Race… (its cap) is offered, on the group's line or, with nothing capped, on this one's. */ inGroup: boolean;
}

/** The part of a card its agent computes from its transcript, status file and terminal (src/agents/agent/agent.ts). */
export type AgentFacts = Pick<
  CardView,
  | "id"
  | "name"
  | "index"
  | "status"
  | "lastTurn"
  | "tools"
  | "focused"
  | "retry"
  | "context"
  | "statusSource"
  | "needsYou"
  | "reconnecting"
  | "exitMessage"
  | "sandboxed"
  | "sandboxMissing"
>;

/** The part live sources add beyond the transcript (src/agents/cards/liveBoard.ts). */
export type LiveFacts = Omit<CardView, keyof AgentFacts>;

/**
 * What a card needs the user for. `permission`: Claude Code's own permission prompt. `approval`:
 * an Arcadia approval (a command, a path outside the workspace). `review`: a write's diff awaiting
 * Accept / Reject. `question`: the agent asked the user something (AskUserQuestion). `dialog`:
 * another dialog of the CLI waits in its terminal.
 */
export interface NeedsYouView {
  kind: "permission" | "approval" | "review" | "question" | "dialog";
}

/**
 * Something the user can answer on a tool row: an approval Arcadia's own MCP tools ask for
 * (`command`, `path`, `write`), or Claude Code's permission prompt relayed by a hook (`permission`).
 */
export interface PromptView {
  /** The approval id or permission request id: what the answer names. */
  id: string;
  kind: "command" | "path" | "write" | "permission";
  /** One line: the command, the path, the file, "Bash: rm -rf build". */
  subject: string;
  /** Why Arcadia asks (its own approvals), e.g. "its folder is in another git repository (…)". */
  reason?: string;
  /** The transcript tool_use (row) it belongs to; null: shown at the foot of the card. */
  toolUseId: string | null;
  /** The request carries suggestions the CLI can remember ("Always allow"). */
  canAlwaysAllow: boolean;
  /** Its own words for the question and the two answers (Remove / Keep), when they are not the kind's title and Allow / Deny. */
  wording?: PromptWording;
}

/** The words of a prompt whose answers are not Allow / Deny (core/mcp ApprovalWording): the answers sent stay allow and deny. */
export interface PromptWording {
  title: string;
  /** The button that answers allow. */
  allow: string;
  /** The button that answers deny. */
  deny: string;
  /** The answer that changes nothing the user would miss: first, and the primary button. */
  harmless: "allow" | "deny";
}

/** A call to Arcadia's MCP server still in flight: its row shows Cancel / Complete. */
export interface LiveCallView {
  callId: string;
  /** The transcript tool_use it is; null while it cannot be told (shown at the foot of the card). */
  toolUseId: string | null;
  /** The MCP tool's own name, e.g. `execute_command`. */
  tool: string;
  /** One line for the panel, e.g. the command. */
  display: string;
  /** ms since the epoch; the webview ticks the elapsed time itself. */
  startedAt: number;
  /**
   * When it began to run (ms since the epoch): `startedAt`, or the moment its approval was given.
   * null while it still waits for an approval: the row then offers Cancel alone, no counter.
   */
  runningSince: number | null;
  /** What Complete does for this call, as a tooltip: "Return the output so far". */
  completeHint: string;
}

/**
 * A command its call left running: Complete on an execute_command answered the agent with the
 * output so far, and the command runs on in the agent's commands terminal until it exits or Stop.
 */
export interface StillRunningView {
  /** What Stop names. */
  id: string;
  /** The row of the call that started it; null: shown at the card's foot. */
  toolUseId: string | null;
  display: string;
  /** ms since the epoch: it has run since then (the webview ticks the time itself). */
  startedAt: number;
}

/** A file this agent and others edit, not committed yet (the collision guard): the card warns. */
export interface SharedFileView {
  /** As seen from the agent's folder when inside it, e.g. "src/App.tsx". */
  file: string;
  /** The other agents' names, e.g. ["Agent #1"]. */
  withAgents: string[];
}

/** A worktree agent's isolation and its changes against its base. */
export interface WorktreeView {
  branch: string;
  base: string;
  /** Committed, staged, unstaged and untracked alike; null until first counted. */
  changes: { files: number; added: number; removed: number } | null;
}

/** The files an agent (in the shared checkout) changed in its session, from its transcript. */
export interface SessionEditsView {
  /** The first ones, as seen from its folder. */
  files: string[];
  total: number;
}

/** Tokens a session used (all models) and their estimated cost, from its transcript and the price table. */
export interface SessionUsageView {
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /** USD, estimated (core/usage/prices.ts); models the table does not know are left out of it. */
  costUsd: number;
  unpricedModels: string[];
}

/** One earlier turn of the agent's session, collapsed to a line ("Turn 3 · 5 tools · 42 s · completed"). */
export interface TurnSummaryView {
  number: number;
  prompt: string;
  durationMs: number | null;
  tools: number;
  ending: "running" | "completed" | "interrupted" | "error";
  /** Its first calls, for when it is expanded. */
  rows: { label: string; outcome: ToolView["outcome"] }[];
}

/**
 * The reviewer's comments on this agent's changes (threads not resolved), from the diff's comment
 * threads: "3 review comments — 2 addressed", "2 comments will send when idle", "Send 2 comments".
 */
export interface ReviewCommentsView {
  /** Threads not resolved. */
  total: number;
  /** Comments written and not sent (nor queued). */
  drafts: number;
  /** Comments that go out once the agent is idle. */
  queued: number;
  /** Threads sent whose answer (the agent's next turn) is not over yet. */
  awaiting: number;
  /** Threads sent and answered: their lines changed (addressed) or not. */
  addressed: number;
  unaddressed: number;
}

/** A piece of a session as the reader shows it (core/sessions/sessionDocument.ts). */
export type SessionItemView =
  | { kind: "prompt"; text: string; at?: number; turn: number; source: "user" | "task-notification" }
  | { kind: "reply"; text: string; at?: number }
  | { kind: "tool"; id: string; label: string; parent: string | null; outcome: ToolView["outcome"]; at?: number }
  | { kind: "error"; text: string; at?: number }
  | { kind: "interrupt"; at?: number }
  | { kind: "compaction"; at?: number }
  | { kind: "turnEnd"; durationMs?: number; at?: number };

/** Something the whole panel must say, e.g. that `claude` cannot be found. */
export type NoticeCommand = "openSettings" | "openInstallDocs" | "openSandboxSettings" | "dismissNotice";

export interface NoticeView {
  kind: "claudeMissing" | "sandboxMissing" | "agentSandboxMissing" | "error";
  message: string;
  /** Things the user can do about it, rendered as buttons. */
  actions: { label: string; command: NoticeCommand }[];
}

/** What the agents closed on `day` (the extension's local "YYYY-MM-DD") had spent, summed: the header's total keeps it. */
export interface ClosedSpend {
  day: string;
  agents: number;
  tokens: number;
  costUsd: number;
}

/** What the extension pushes to the panel unasked (protocols/panel.ts: PanelPush). */
export type ExtensionMessage =
  /**
   * Everything (with the queue's line and today's closed agents' spend): the answer to `webviewReady`
   * (asked every time the view is shown), and embedded for its first paint.
   */
  | { type: "snapshot"; cards: CardView[]; notice: NoticeView | null; queue?: string | null; closed?: ClosedSpend | null }
  /** The task queue on one line ("Queue: 7 waiting · 3 running · 12 done · 1 needs you"); null: no queue to show. */
  | { type: "queueLine"; line: string | null }
  /**
   * The cards changed since the last message, each whole, and those removed: at most one a frame
   * (vscode/panel/cardFeed.ts). With removals, today's closed spend too, in the same message: the
   * header's total never dips between a card leaving and its spend joining the closed part.
   */
  | { type: "cardsChanged"; changed: CardView[]; removed: string[]; closed?: ClosedSpend | null }
  /** One card changed: the whole card, which replaces the one the panel has (the page still takes it alone). */
  | { type: "cardChanged"; card: CardView }
  | { type: "cardRemoved"; id: string }
  | { type: "notice"; notice: NoticeView | null }
  /** Bring this card into view and mark it for a moment (Go to Next Agent That Needs You); never takes keyboard focus. */
  | { type: "revealAgent"; id: string };
