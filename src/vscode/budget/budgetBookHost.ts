/**
 * The budget on VS Code: its settings (`arcadia.budget.*`, applied at once when they change), its
 * raises kept in workspace state (they survive a reload and a restart), a refused setting said
 * to the user once, with the setting named and a way to open it, and the spawn-rate alarm's notice
 * (with Pause: the agent capped at what it spent, and Show: its terminal).
 */
import { SpawnAlarm } from "../../agents/budget/spawnAlarm";
import { BudgetBook } from "../../agents/budget/budgetBook";
import type { RawBudgetSettings } from "../../core/budget";
import { vscode } from "../api";

const STATE_KEY = "arcadia.budget.state";

function readSettings(): RawBudgetSettings {
  const config = vscode.workspace.getConfiguration("arcadia.budget");
  const setting = (name: string) => config.get<unknown>(name);
  return { perAgent: setting("perAgent"), perDay: setting("perDay"), perRace: setting("perRace"), maxSubagents: setting("maxSubagents") };
}

export interface BudgetAgents {
  name(agentId: string): string | undefined;
  focus(agentId: string): void;
}

export function createBudgetBook(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  agents: BudgetAgents,
): { book: BudgetBook; alarm: SpawnAlarm; owned: vscode.Disposable } {
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
  const alarm = new SpawnAlarm();
  alarm.onDidAlarm(({ agentId, what }) => {
    const name = agents.name(agentId) ?? "An agent";
    log.warn(`budget: ${name} made ${what}`);
    book.runaway(agentId, what);
    void vscode.window.showWarningMessage(`Arcadia: ${name} made ${what}. Pause it?`, "Pause", "Show").then((choice) => {
      if (choice === "Show") agents.focus(agentId);
      if (choice !== "Pause") return;
      const refused = book.pauseNow(agentId);
      if (refused) void vscode.window.showWarningMessage(`Arcadia: ${name} not paused: ${refused}`);
    });
  });
  return { book, alarm, owned: vscode.Disposable.from(listening, book, alarm) };
}
