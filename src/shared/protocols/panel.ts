/**
 * The panel's protocol (the bottom panel's webview, page `agents`): what its buttons ask of the
 * extension, and what the extension pushes to it (the cards, the notice, a card to bring into
 * view). Its host (vscode/panel/viewProvider.ts) accepts these messages only.
 */
import * as z from "zod/mini";
import { AGENT_NAME_MAX_LENGTH } from "../agentName";
import type { ExtensionMessage, NoticeCommand } from "../protocol";
import type { NoPayload, PageDefinition, PageHandlers, PageMessage } from "./pageProtocol";
import { boundedId, type Holds, lazyPageParser, pageMessage, type SameMessages } from "./pageSchema";

/** What the panel asks. Each answers `void` (it acts; what changes comes back as pushes) but the first. */
export type PanelRequests = {
  /** The page listens (each time the view is shown) and asks for everything now: every card and the notice. */
  webviewReady: [NoPayload, PanelSnapshot];
  openClaude: [NoPayload, void];
  /** Open Claude Code in a new git worktree (asks for its name). */
  openClaudeInWorktree: [NoPayload, void];
  /** A worktree agent's card: its changes in a diff editor, merge into its base, remove the worktree. */
  worktreeAction: [{ id: string; action: "review" | "merge" | "remove" }, void];
  /** A card's review comments: send its drafts to the agent (now if idle, else once it is). */
  reviewAction: [{ id: string; action: "send" }, void];
  /** A card's budget: Raise… (asks for the new cap), Stop (closes its terminal) when paused; Cap… (its own cap), Race… (its race's) when not. */
  budgetAction: [{ id: string; action: "raise" | "stop" | "cap" | "capRace" }, void];
  /** The toolbar's Run on Several Agents…: one task, several worktree agents (asks for the task, the count, the models). */
  runOnSeveralAgents: [NoPayload, void];
  /** The toolbar's Queue Tasks…: tasks for the queue (at most arcadia.queue.parallel agents at once). */
  queueTasks: [NoPayload, void];
  /** The queue's line: open the queue tab. */
  showQueue: [NoPayload, void];
  /** A card's race tag: open the race's compare tab. */
  showRace: [{ raceId: string }, void];
  /** A race member's card that did not start: Retry (a new agent in its worktree, its task typed once). */
  retryRaceMember: [{ id: string }, void];
  /** The toolbar's Sessions button: show the Sessions view. */
  showSessions: [NoPayload, void];
  focusAgent: [{ id: string }, void];
  closeAgent: [{ id: string }, void];
  renameAgent: [{ id: string; name: string }, void];
  cancelCall: [{ callId: string }, void];
  completeCall: [{ callId: string }, void];
  /** Stop a command a call left running after Complete (Ctrl+C to it). */
  stopCommand: [{ id: string }, void];
  answerPrompt: [{ id: string; decision: "allow" | "deny" | "alwaysAllow" }, void];
  /** Show what a prompt is about: the diff of a write, the terminal of a permission prompt. */
  revealPrompt: [{ id: string }, void];
  /** `claude` exited: start it again in the same terminal, resuming the session. */
  restartAgent: [{ id: string }, void];
  noticeAction: [{ command: NoticeCommand }, void];
  /** The cards on screen now (at least half visible): notifications are for the others. */
  cardsVisible: [{ ids: string[] }, void];
};

export type PanelSnapshot = Extract<ExtensionMessage, { type: "snapshot" }>;

/** What the extension pushes to the panel: the card messages, the notice, revealAgent (defined in protocol.ts, beside the card views). */
export type PanelPush = ExtensionMessage;

export type PanelProtocol = { requests: PanelRequests; push: PanelPush };

/** A message from the panel, as it crosses. */
export type PanelMessage = PageMessage<PanelRequests>;

export type PanelHandlers = PageHandlers<PanelRequests>;

function buildPanelSchema() {
  const id = boundedId();
  return z.discriminatedUnion("type", [
    pageMessage("webviewReady", {}),
    pageMessage("openClaude", {}),
    pageMessage("openClaudeInWorktree", {}),
    pageMessage("worktreeAction", { id, action: z.enum(["review", "merge", "remove"]) }),
    pageMessage("reviewAction", { id, action: z.enum(["send"]) }),
    pageMessage("budgetAction", { id, action: z.enum(["raise", "stop", "cap", "capRace"]) }),
    pageMessage("runOnSeveralAgents", {}),
    pageMessage("queueTasks", {}),
    pageMessage("showQueue", {}),
    pageMessage("showRace", { raceId: id }),
    pageMessage("retryRaceMember", { id }),
    pageMessage("showSessions", {}),
    pageMessage("focusAgent", { id }),
    pageMessage("closeAgent", { id }),
    pageMessage("renameAgent", { id, name: z.string().check(z.trim(), z.minLength(1), z.maxLength(AGENT_NAME_MAX_LENGTH)) }),
    pageMessage("cancelCall", { callId: id }),
    pageMessage("completeCall", { callId: id }),
    pageMessage("stopCommand", { id }),
    pageMessage("answerPrompt", { id, decision: z.enum(["allow", "deny", "alwaysAllow"]) }),
    pageMessage("revealPrompt", { id }),
    pageMessage("restartAgent", { id }),
    pageMessage("noticeAction", { command: z.enum(["openSettings", "openInstallDocs", "openSandboxSettings", "dismissNotice"]) }),
    pageMessage("cardsVisible", { ids: z.array(id).check(z.maxLength(1000)) }),
  ]);
}

// The schema and the map hold the same messages: one added to either alone fails to compile.
type _SchemaMatchesMap = Holds<SameMessages<z.infer<ReturnType<typeof buildPanelSchema>>, PanelMessage>>;

export const PANEL_PAGE: PageDefinition<PanelProtocol> = { view: "agents", name: "panel", parse: lazyPageParser<PanelMessage>(buildPanelSchema) };
