/**
 * The budget's commands, which the card's buttons call: Raise… asks for the new cap (above what is
 * spent, at most $10,000) and lets the agent's next tool call pass; Stop closes the paused agent's
 * terminal (its session stays on disk, to resume from the Sessions view).
 */
import type { AgentManager } from "../../agents/agent/agentManager";
import type { BudgetBook } from "../../agents/budget/budgetBook";
import { dollars, MAX_CAP_USD } from "../../core/budget";
import { vscode } from "../api";

export const BUDGET_COMMANDS = { raise: "arcadia.budget.raise", stop: "arcadia.budget.stop" } as const;

/** The cap typed, or why it is refused. */
export function typedCap(text: string, spentUsd: number): number | string {
  const value = Number(text.trim().replace(/^\$/, ""));
  if (text.trim() === "" || !Number.isFinite(value)) return "Write an amount in dollars, e.g. 10";
  if (value <= spentUsd) return `Above what it spent: more than ${dollars(spentUsd)}`;
  if (value > MAX_CAP_USD) return `At most $${MAX_CAP_USD}`;
  return value;
}

export function registerBudgetCommands(book: BudgetBook, manager: AgentManager): vscode.Disposable {
  const raise = async (agentId: unknown) => {
    if (typeof agentId !== "string" || !manager.agentInfo(agentId)) return;
    const name = manager.agentInfo(agentId)?.name ?? "this agent";
    const verdict = book.verdict(agentId);
    const { scope, capUsd } = book.capOf(agentId);
    const spent = verdict.paused ? verdict.spentUsd : 0;
    const whose = scope === "day" ? "today's cap for all agents" : `${name}'s cap`;
    const suggested = Math.max(spent, capUsd ?? 0) + Math.max(1, capUsd ?? 1);
    const text = await vscode.window.showInputBox({
      title: `Raise ${whose}`,
      prompt: `Spent ${dollars(spent)} of ${dollars(capUsd ?? 0)}. The new cap, in dollars: its next tool call passes.`,
      value: suggested.toFixed(2),
      validateInput: (v) => {
        const cap = typedCap(v, spent);
        return typeof cap === "string" ? cap : undefined;
      },
    });
    if (text === undefined) return;
    const cap = typedCap(text, spent);
    if (typeof cap === "string") return;
    const refused = book.raise(agentId, cap);
    if (refused) void vscode.window.showWarningMessage(`Arcadia: ${refused}`);
  };
  const stop = (agentId: unknown) => {
    if (typeof agentId === "string" && manager.agentInfo(agentId)) manager.close(agentId);
  };
  return vscode.Disposable.from(vscode.commands.registerCommand(BUDGET_COMMANDS.raise, raise), vscode.commands.registerCommand(BUDGET_COMMANDS.stop, stop));
}
