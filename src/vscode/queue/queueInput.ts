/**
 * "Queue Tasks…": where the tasks come from — one task typed in an input box, the text of the
 * editor in front (one task per paragraph; a Markdown task list's unchecked items when it has
 * any), or a Markdown task list file picked from disk. A task that would not type as it reads (the
 * typed-text rule), an empty one, a file missing, unreadable, too big or not text: each is named
 * with its line or the file, and nothing is queued until the user has seen what was left out.
 */
import { vscode } from "../api";
import { draftProblemLine, readTaskFile, type TaskDraft, tasksFromParagraphs, tasksFromTaskList, type TaskSourceRead } from "../../core/queue";
import { typedTextProblem } from "../../core/launch";

const TITLE = "Queue Tasks";
const TASK_ITEM = /^\s*[-*+]\s+\[[ xX]\]\s/m;

/** The tasks to queue, or undefined when the user escaped or nothing could be queued (said why). */
export async function askForTasks(): Promise<{ text: string }[] | undefined> {
  const editor = editorInFront();
  const items = [
    { label: "Type a task…", id: "type" as const },
    ...(editor ? [{ label: "Tasks from the editor's text", description: "one per paragraph, or a task list's unchecked items", id: "editor" as const }] : []),
    { label: "A Markdown task list file…", description: "its unchecked items (- [ ] …)", id: "file" as const },
  ];
  const source = await vscode.window.showQuickPick(items, { title: TITLE, placeHolder: "Where are the tasks?", ignoreFocusOut: true });
  if (!source) return undefined;
  if (source.id === "type") {
    const text = await vscode.window.showInputBox({
      title: `${TITLE}: one task`,
      prompt: "Typed at its agent's prompt as you write it, once a slot frees. Each task gets a worktree of its own.",
      validateInput: (v) => (v.trim() === "" ? "An empty task: write what to ask." : typedTextProblem(v.trim())),
      ignoreFocusOut: true,
    });
    return text === undefined ? undefined : [{ text: text.trim() }];
  }
  if (source.id === "editor") return chosen(fromText(editor!.document.getText()), editor!.document.fileName);
  const picked = await vscode.window.showOpenDialog({
    title: `${TITLE}: a Markdown task list`,
    canSelectMany: false,
    filters: { Markdown: ["md", "markdown", "txt"] },
  });
  const path = picked?.[0]?.fsPath;
  if (!path) return undefined;
  const read = await readTaskFile(path);
  if (!read.ok) {
    void vscode.window.showErrorMessage(`${TITLE}: ${read.problem}`);
    return undefined;
  }
  return chosen(tasksFromTaskList(read.text), path);
}

/**
 * The editor in front: the active one, else the only document editor shown (just opened from the
 * Explorer, whose list keeps the focus, VS Code may not have made it active yet).
 */
function editorInFront(): vscode.TextEditor | undefined {
  const shown = vscode.window.visibleTextEditors.filter((e) => e.document.uri.scheme === "file" || e.document.uri.scheme === "untitled");
  return vscode.window.activeTextEditor ?? (shown.length === 1 ? shown[0] : undefined);
}

/** A task list when the text has task items, else its paragraphs. */
export const fromText = (text: string): TaskSourceRead => (TASK_ITEM.test(text) ? tasksFromTaskList(text) : tasksFromParagraphs(text));

/** The good drafts once the user saw which were left out (and why); undefined when none is left or they escaped. */
async function chosen(read: TaskSourceRead, where: string): Promise<{ text: string }[] | undefined> {
  if (read.nothing) {
    void vscode.window.showWarningMessage(`${TITLE}: ${read.nothing} (${where})`);
    return undefined;
  }
  const good = read.drafts.filter((d) => !d.problem);
  const bad = read.drafts.filter((d): d is TaskDraft & { problem: string } => d.problem !== undefined);
  if (bad.length === 0) return good.map((d) => ({ text: d.text }));
  const detail = bad.map(draftProblemLine).join("\n");
  if (good.length === 0) {
    void vscode.window.showErrorMessage(`${TITLE}: no task can be queued as written.`, { modal: true, detail });
    return undefined;
  }
  const go = `Queue the other ${good.length}`;
  const answer = await vscode.window.showWarningMessage(
    `${TITLE}: ${bad.length} of ${read.drafts.length} tasks cannot be queued as written.`,
    { modal: true, detail },
    go,
  );
  return answer === go ? good.map((d) => ({ text: d.text })) : undefined;
}
