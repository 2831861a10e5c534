/**
 * The review threads in VS Code's comments UI (the comments API, as the built-in PR review uses
 * it): one comment controller whose commenting ranges are the lines of files in an agent's Review
 * (the `file:` side of the diff; the `arcadia-base:` side is not commentable), and one VS Code
 * thread per thread of the ReviewDesk's book, painted from it on every change: its lines, its
 * comments (drafts and sent ones), its label ("Agent #2 · addressed: its lines changed"), whether
 * it can be replied to, sent, resolved. Threads saved in the workspace come back after a reload.
 */
import type { ReviewDesk } from "../../agents/review/reviewDesk";
import { type AgentReview, type ReviewThread, threadLabel, threadStatus } from "../../core/review";
import { vscode } from "../api";
import { DisposableMap, DisposableObject } from "../../core/util";

export const REVIEW_CONTROLLER_ID = "arcadia.review";

/** A VS Code thread or comment, and what it stands for in the book. */
export interface ThreadRef {
  agentId: string;
  threadId: string;
}

/** A book thread shown: its VS Code thread, disposed with it. */
interface Shown extends vscode.Disposable {
  ref: ThreadRef;
  view: vscode.CommentThread;
}

export class CommentThreads extends DisposableObject {
  private readonly controller: vscode.CommentController;
  private readonly shown: DisposableMap<string, Shown>;
  private readonly refs = new WeakMap<vscode.CommentThread, ThreadRef>();
  private readonly notes = new WeakMap<vscode.Comment, ThreadRef & { noteId: string }>();
  /** A thread VS Code made for a comment being added: it becomes that comment's thread. */
  private adopting: vscode.CommentThread | undefined;

  constructor(
    private readonly desk: ReviewDesk,
    commentable: (file: string) => boolean,
  ) {
    super();
    this.controller = this._register(vscode.comments.createCommentController(REVIEW_CONTROLLER_ID, "Review comments for agents"));
    // After the controller: its threads are disposed before it (newest first).
    this.shown = this._register(new DisposableMap<string, Shown>());
    this.controller.options = { prompt: "Comment for the agent…", placeHolder: "What should the agent change here? It goes out when you send the comments." };
    this.controller.commentingRangeProvider = {
      provideCommentingRanges: (document) =>
        document.uri.scheme === "file" && commentable(document.uri.fsPath) ? [new vscode.Range(0, 0, Math.max(0, document.lineCount - 1), 0)] : [],
    };
    this._register(desk.book.onDidChange((agentId) => this.render(agentId)));
    for (const review of desk.book.all()) this.render(review.agentId);
  }

  /** What a VS Code thread of ours stands for. */
  refOf(view: vscode.CommentThread): ThreadRef | undefined {
    return this.refs.get(view);
  }

  /** What a comment of ours stands for. */
  noteOf(comment: vscode.Comment): (ThreadRef & { noteId: string }) | undefined {
    return this.notes.get(comment);
  }

  /** Runs `add` (which makes a thread in the book) with `view`, the thread VS Code made, as its view. */
  adopt<T>(view: vscode.CommentThread, add: () => T): T {
    this.adopting = view;
    try {
      return add();
    } finally {
      this.adopting = undefined;
    }
  }

  private render(agentId: string): void {
    const review = this.desk.book.review(agentId);
    const keep = new Set<string>();
    for (const thread of review?.threads ?? []) {
      const key = `${agentId}\n${thread.id}`;
      keep.add(key);
      let shown = this.shown.get(key);
      if (!shown) {
        const ref = { agentId, threadId: thread.id };
        const adopted = this.adopting?.uri.fsPath === thread.file ? this.adopting : undefined;
        this.adopting = undefined;
        const view = adopted ?? this.controller.createCommentThread(vscode.Uri.file(thread.file), rangeOf(thread), []);
        view.collapsibleState = thread.resolved ? vscode.CommentThreadCollapsibleState.Collapsed : vscode.CommentThreadCollapsibleState.Expanded;
        shown = this.shown.set(key, { ref, view, dispose: () => view.dispose() });
        this.refs.set(view, ref);
      }
      if (review) this.paint(shown.view, shown.ref, review, thread);
    }
    for (const [key, shown] of [...this.shown.entries()]) if (shown.ref.agentId === agentId && !keep.has(key)) this.shown.deleteAndDispose(key);
  }

  private paint(view: vscode.CommentThread, ref: ThreadRef, review: AgentReview, thread: ReviewThread): void {
    const range = rangeOf(thread);
    if (!view.range?.isEqual(range)) view.range = range;
    view.comments = thread.notes.map((note) => {
      const comment: vscode.Comment = {
        // A plain string is shown as text, never rendered as Markdown.
        body: note.body,
        mode: vscode.CommentMode.Preview,
        author: { name: "You" },
        label: note.sentAt === null ? "draft" : "sent",
        contextValue: note.sentAt === null && !review.closed ? "draft" : "sent",
        timestamp: new Date(note.at),
      };
      this.notes.set(comment, { ...ref, noteId: note.id });
      return comment;
    });
    view.label = threadLabel(review, thread);
    const status = threadStatus(thread);
    view.canReply = !review.closed && !thread.resolved;
    view.state = thread.resolved ? vscode.CommentThreadState.Resolved : vscode.CommentThreadState.Unresolved;
    // Words the package.json menus look for: what each thread offers.
    const offers = [thread.resolved ? "canReopen" : "canResolve", !review.closed && status === "draft" ? "canSend" : "", review.closed ? "canDiscard" : ""];
    view.contextValue = offers.filter(Boolean).join(" ");
  }
}

function rangeOf(thread: ReviewThread): vscode.Range {
  return new vscode.Range(thread.anchor.line, 0, thread.anchor.line + thread.anchor.lines.length - 1, 0);
}
