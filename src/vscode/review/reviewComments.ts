/**
 * Review comments that talk back, wired to VS Code: the ReviewDesk (src/agents) with its threads
 * kept in the workspace's state, the comment threads in the editors, and the commands behind the
 * comment widget's buttons, the thread menus, the palette and the card's "Send N comments":
 * Add Comment, Reply, Send, Resolve / Reopen, Delete, Discard (a closed agent's threads).
 */
import { readFile } from "node:fs/promises";
import { combinedDisposable } from "../../core/util";
import type { AgentManager } from "../../agents/agent/agentManager";
import type { Log } from "../../agents/ports";
import { ReviewDesk } from "../../agents/review/reviewDesk";
import { ReviewOwners } from "../../agents/review/reviewOwners";
import type { AgentReview } from "../../core/review";
import { readSavedReviews } from "../../core/review";
import { countOf, errorMessage } from "../../core/util";
import { vscode } from "../api";
import { harmlessFirst } from "../harmlessFirst";
import { CommentThreads } from "./commentThreads";
import { holdPanelInFront, type PanelPresence } from "../panelPresence";

export const REVIEW_COMMANDS = {
  comment: "arcadia.review.addComment",
  reply: "arcadia.review.reply",
  send: "arcadia.review.send",
  resolve: "arcadia.review.resolve",
  reopen: "arcadia.review.reopen",
  deleteComment: "arcadia.review.deleteComment",
  discard: "arcadia.review.discardClosed",
} as const;

const STATE_KEY = "arcadia.reviewThreads";

export interface ReviewCommentsDeps {
  manager: Pick<AgentManager, "agentIds" | "agentInfo" | "onDidChange" | "onDidReadTranscript">;
  state: vscode.Memento;
  owners: ReviewOwners;
  log: Log;
  /** Opens the agent's Review again (after its answer to the comments). */
  openReview(agentId: string): void;
  /** The panel, where the comments are sent from: kept in front when VS Code's Comments view opens over it. */
  panel: PanelPresence;
}

export function createReviewComments(deps: ReviewCommentsDeps): { desk: ReviewDesk; owned: vscode.Disposable } {
  const { reviews, dropped } = readSavedReviews(deps.state.get<unknown>(STATE_KEY, []));
  if (dropped > 0)
    deps.log.warn(`review comments: ${countOf(dropped, "saved thread or agent", "saved threads or agents")} did not read back and were left out`);
  const desk = new ReviewDesk({
    agents: deps.manager,
    readFile: (path) => readFile(path, "utf8").catch((err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? null : Promise.reject(err))),
    save: (saved: AgentReview[]) => Promise.resolve(deps.state.update(STATE_KEY, saved)),
    saved: reviews,
    log: deps.log,
    onAnswered: (agentId) => deps.openReview(agentId),
    onClosedWithDrafts: (agentId, name, drafts) => void closedNotice(desk, agentId, name, drafts),
    confirmQueuedSend: (_agentId, name, comments) => sendNow(name, comments),
  });
  const threads = new CommentThreads(desk, (file) => deps.owners.ownerOf(file) !== undefined);
  const run = (what: string, work: () => Promise<void> | void) => async () => {
    try {
      await work();
    } catch (err) {
      deps.log.warn(`review comments: ${what} failed: ${errorMessage(err)}`);
      void vscode.window.showErrorMessage(`Review comment: ${what} failed: ${errorMessage(err)}`);
    }
  };
  const register = (id: string, handler: (arg: never) => Promise<void> | void, what: string) =>
    vscode.commands.registerCommand(id, (arg: never) => run(what, () => handler(arg))());

  const addComment = async (reply: vscode.CommentReply) => {
    const file = reply.thread.uri.fsPath;
    const agentId = reply.thread.uri.scheme === "file" ? deps.owners.ownerOf(file) : undefined;
    if (!agentId) return keepText(reply.text, "This file is in no agent's Review: open Review from the agent's card, then comment on its lines.");
    if (!reply.text.trim()) return void vscode.window.showWarningMessage("Write the comment first: an empty comment tells the agent nothing.");
    const text = (await vscode.workspace.openTextDocument(reply.thread.uri)).getText();
    const { start, end } = reply.thread.range ?? new vscode.Range(0, 0, 0, 0);
    // The first comment in a file opens VS Code's Comments view over the panel its Send is on.
    holdPanelInFront(deps.panel);
    const made = threads.adopt(reply.thread, () => desk.comment(agentId, file, text, start.line, end.line, reply.text));
    if (!made) return keepText(reply.text, "The agent this file belongs to is closed: no comment can be added for it.");
  };

  const reply = async (reply: vscode.CommentReply) => {
    const ref = threads.refOf(reply.thread);
    if (!ref) return addComment(reply);
    if (!reply.text.trim()) return void vscode.window.showWarningMessage("Write the reply first: an empty comment tells the agent nothing.");
    const text = await vscode.workspace.openTextDocument(reply.thread.uri).then(
      (d) => d.getText(),
      () => undefined,
    );
    if (!desk.reply(ref.agentId, ref.threadId, text, reply.text)) return keepText(reply.text, "This thread can take no more comments (its agent is closed).");
  };

  const send = async (arg?: vscode.CommentThread | string) => {
    const agentId = typeof arg === "string" ? arg : arg ? threads.refOf(arg)?.agentId : await pickAgentWithDrafts(desk, deps.manager);
    if (!agentId) return;
    const name = deps.manager.agentInfo(agentId)?.name ?? desk.book.review(agentId)?.agentName ?? "The agent";
    const drafts = desk.book.draftCount(agentId);
    const outcome = await desk.send(agentId);
    const { window } = vscode;
    if (outcome === "queued") void window.showInformationMessage(`${name} is working: ${plural(drafts, "comment")} will be sent when it is idle.`);
    else if (outcome === "closed") void window.showWarningMessage(`${name} was closed: its comments stay on their lines and cannot go to another agent.`);
    else if (outcome === "failed") void window.showErrorMessage(`${name}: the comments could not be typed at its prompt (see the log); kept as drafts.`);
    else if (outcome === "nothing") void window.showInformationMessage(`${name} has no comment waiting to be sent.`);
  };

  const resolve = (resolved: boolean) => (view: vscode.CommentThread) => {
    const ref = threads.refOf(view);
    if (ref) desk.book.setResolved(ref.agentId, ref.threadId, resolved);
  };

  const deleteComment = (comment: vscode.Comment) => {
    const ref = threads.noteOf(comment);
    if (ref) desk.book.deleteNote(ref.agentId, ref.threadId, ref.noteId);
  };

  const discard = async (view?: vscode.CommentThread) => {
    const agentId = view && threads.refOf(view)?.agentId;
    const review = agentId ? desk.book.review(agentId) : undefined;
    if (!agentId || !review?.closed) return;
    const go = "Discard";
    const question = `Discard ${plural(review.threads.length, "review thread")} of ${review.agentName} (closed)?`;
    const answer = await vscode.window.showWarningMessage(question, { modal: true }, ...harmlessFirst("Keep them", go));
    if (answer?.title === go) desk.book.discard(agentId);
  };

  return {
    desk,
    owned: combinedDisposable(
      desk,
      threads,
      register(REVIEW_COMMANDS.comment, addComment, "adding"),
      register(REVIEW_COMMANDS.reply, reply, "replying"),
      register(REVIEW_COMMANDS.send, send, "sending"),
      register(REVIEW_COMMANDS.resolve, resolve(true), "resolving"),
      register(REVIEW_COMMANDS.reopen, resolve(false), "reopening"),
      register(REVIEW_COMMANDS.deleteComment, deleteComment, "deleting"),
      register(REVIEW_COMMANDS.discard, discard, "discarding"),
    ),
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** A comment that cannot be taken: say why, and keep its text (the clipboard) so nothing is lost. */
async function keepText(text: string, why: string): Promise<void> {
  const copy = "Copy My Comment";
  if ((await vscode.window.showWarningMessage(why, copy)) === copy) await vscode.env.clipboard.writeText(text);
}

/** A queued send is due: typed only on the user's word, as text they left in claude's input box would join it. */
async function sendNow(name: string, comments: number): Promise<boolean> {
  const send = "Send Now";
  const answer = await vscode.window.showInformationMessage(
    `${name} is idle: send ${plural(comments, "queued review comment")} now? Anything left typed in its input box would be joined to them: clear it first.`,
    send,
  );
  return answer === send;
}

/** An agent was closed with drafts: they stay; the reviewer may discard them. */
async function closedNotice(desk: ReviewDesk, agentId: string, name: string, drafts: number): Promise<void> {
  const discard = "Discard Them";
  const answer = await vscode.window.showInformationMessage(
    `${name} was closed with ${plural(drafts, "review comment")} not sent. They stay on their lines, marked "${name} (closed)"; ` +
      "they cannot go to another agent.",
    discard,
  );
  if (answer === discard) desk.book.discard(agentId);
}

async function pickAgentWithDrafts(desk: ReviewDesk, manager: ReviewCommentsDeps["manager"]): Promise<string | undefined> {
  const candidates = manager
    .agentIds()
    .filter((id) => desk.book.outgoing(id).length > 0)
    .map((id) => ({ id, name: manager.agentInfo(id)?.name ?? "The agent" }));
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage("No agent has review comments waiting to be sent. Comment on lines of an agent's Review first.");
    return undefined;
  }
  if (candidates.length === 1) return candidates[0]?.id;
  const chosen = await vscode.window.showQuickPick(
    candidates.map((a) => ({ label: a.name, description: plural(desk.book.draftCount(a.id), "comment"), id: a.id })),
    { title: "Send review comments to which agent?" },
  );
  return chosen?.id;
}
