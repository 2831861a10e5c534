/**
 * The setup step's ports on VS Code: `arcadia.worktree.setupCommand` read from the user's settings
 * only (a workspace's or folder's value is named, never run: the setting is machine-scoped too, so
 * VS Code itself ignores it there), the timeout setting, the answers about a repository's setup file
 * in global state (per repository, per hash of its text), and the question as a modal that shows
 * the exact text, "Don't run" first (Enter and Escape run nothing).
 */
import { vscode } from "../api";
import { type SetupPorts } from "../../agents/queue/queueSetup";
import { runSetupProcess } from "../../agents/queue/setupProcess";
import { readAnswers, type SetupAnswers, setupTimeoutMs } from "../../core/queue";
import { harmlessFirst } from "../harmlessFirst";

const ANSWERS = "arcadia.queue.setupAnswers";
const RUN = "Run it in each new worktree";
const SKIP = "Don't run";

export function vscodeSetupPorts(state: vscode.Memento, log: (m: string) => void): SetupPorts {
  const told = new Set<string>();
  return {
    commands: () => {
      const inspected = vscode.workspace.getConfiguration("arcadia").inspect<string>("worktree.setupCommand");
      const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v : undefined);
      return { user: text(inspected?.globalValue), workspace: text(inspected?.workspaceFolderValue) ?? text(inspected?.workspaceValue) };
    },
    timeoutMs: () => setupTimeoutMs(vscode.workspace.getConfiguration("arcadia").get<number>("worktree.setupTimeoutSeconds")),
    answers: () => readAnswers(state.get<unknown>(ANSWERS)),
    saveAnswers: (answers: SetupAnswers) => Promise.resolve(state.update(ANSWERS, answers)),
    ask: async (question, shown) => {
      const answer = await vscode.window.showWarningMessage(question, { modal: true, detail: shown }, ...harmlessFirst(SKIP, RUN));
      return answer?.title === RUN ? "run" : answer?.title === SKIP ? "skip" : undefined;
    },
    run: (argv, cwd, timeoutMs) => {
      log(`worktree setup in ${cwd}: ${argv[argv.length - 1]}`);
      return runSetupProcess(argv, cwd, timeoutMs);
    },
    note: (message) => {
      if (told.has(message)) return;
      told.add(message);
      void vscode.window.showWarningMessage(message);
    },
  };
}
