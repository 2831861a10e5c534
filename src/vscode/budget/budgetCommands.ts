/**
 * The budget's commands, which the card's buttons call: Raise… asks for the new cap (above what is
 * spent, at most $10,000) and lets the agent's next tool call pass; Stop closes the paused agent's
 * terminal (its session stays on disk, to resume from the Sessions view); Cap… sets an agent's own
 * cap (also from the palette, picking the agent).
 */
import type { AgentManager } from "../../agents/agent/agentManager";
import type { BudgetBook } from "../../agents/budget/budgetBook";
import { dollars, MAX_CAP_USD } from "../../core/budget";
import { vscode } from "../api";

export const BUDGET_COMMANDS = { raise: "arcadia.budget.raise", stop: "arcadia.budget.stop", cap: "arcadia.budget.cap" } as const;

/** The cap typed, or why it is refused; `aboveUsd`: it must be more than that (a raise), else 0 or more. */
export function typedCap(text: string, aboveUsd?: number): number | string {
  const value = Number(text.trim().replace(/^\$/, ""));
  if (text.trim() === "" || !Number.isFinite(value)) return "Write an amount in dollars, e.g. 10";
  if (aboveUsd !== undefined && value <= aboveUsd) return `Above what it spent: more than ${dollars(aboveUsd)}`;
  if (value < 0) return "0 or more (0 pauses it now)";
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
  /** "Cap this agent at…": from the card (its id) or the palette (an agent picked). */
  const cap = async (given: unknown) => {
    const agentId = typeof given === "string" ? given : await pickAgent(manager);
    if (!agentId || !manager.agentInfo(agentId)) return;
    const name = manager.agentInfo(agentId)?.name ?? "this agent";
    const now = book.capOf(agentId).capUsd;
    const text = await vscode.window.showInputBox({
      title: `Cap ${name}'s spending`,
      prompt: "Dollars for its session (sub-agents included), priced from its transcript. At the cap its next tool call is denied; 0 pauses it now.",
      value: now === null ? "" : now.toFixed(2),
      validateInput: (v) => {
        const typed = typedCap(v);
        return typeof typed === "string" ? typed : undefined;
      },
    });
    const typed = text === undefined ? undefined : typedCap(text);
    if (typeof typed !== "number") return;
    const refused = book.capAgent(agentId, typed);
    if (refused) void vscode.window.showWarningMessage(`Arcadia: ${refused}`);
  };
  const stop = (agentId: unknown) => {
    if (typeof agentId === "string" && manager.agentInfo(agentId)) manager.close(agentId);
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand(BUDGET_COMMANDS.raise, raise),
    vscode.commands.registerCommand(BUDGET_COMMANDS.stop, stop),
    vscode.commands.registerCommand(BUDGET_COMMANDS.cap, cap),
  );
}

async function pickAgent(manager: AgentManager): Promise<string | undefined> {
  const items = manager.agentIds().flatMap((id) => {
    const info = manager.agentInfo(id);
    return info ? [{ label: info.name, description: info.cwd, id }] : [];
  });
  return (await vscode.window.showQuickPick(items, { title: "Cap which agent's spending?" }))?.id;
}
