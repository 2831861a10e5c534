/**
 * The budget on VS Code: its settings (`arcadia.budget.*`, applied at once when they change), its
 * raises kept in workspace state (they survive a reload and a restart), and a refused setting said
 * to the user once, with the setting named and a way to open it.
 */
import { BudgetBook } from "../../agents/budget/budgetBook";
import type { RawBudgetSettings } from "../../core/budget";
import { vscode } from "../api";

const STATE_KEY = "arcadia.budget.state";

function readSettings(): RawBudgetSettings {
  const config = vscode.workspace.getConfiguration("arcadia.budget");
  return { perAgent: config.get<unknown>("perAgent"), perDay: config.get<unknown>("perDay"), maxSubagents: config.get<unknown>("maxSubagents") };
}

export function createBudgetBook(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): { book: BudgetBook; owned: vscode.Disposable } {
  const state = context.workspaceState;
  const book = new BudgetBook({
    settings: readSettings,
    state: { load: () => state.get<unknown>(STATE_KEY), save: (value) => void state.update(STATE_KEY, value) },
    log: (m) => log.warn(m),
  });
  const told = new Set<string>();
  const tell = (problems: readonly string[]) => {
    for (const problem of problems) {
      log.warn(problem);
      if (told.has(problem)) continue;
      told.add(problem);
      void vscode.window.showWarningMessage(`Arcadia: ${problem}`, "Open Settings").then((choice) => {
        if (choice) void vscode.commands.executeCommand("workbench.action.openSettings", "arcadia.budget");
      });
    }
  };
  tell(book.problems);
  const listening = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration("arcadia.budget")) tell(book.settingsChanged());
  });
  return { book, owned: vscode.Disposable.from(listening, book) };
}
