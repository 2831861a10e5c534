/**
 * The budget's commands, which the card's buttons call: Raise… asks for the new cap (above what is
 * spent, at most $10,000) and lets the agent's next tool call pass (every member's, when its race's
 * cap paused it); Stop closes the paused agent's terminal (its session stays on disk, to resume from
 * the Sessions view); Cap… sets an agent's own cap (also from the palette, picking the agent); Race…
 * sets the cap of the agent's race for all its members (also from the palette, picking the race);
 * Cap All Agents' Spending per Day… sets the user's `arcadia.budget.perDay` through VS Code (a user
 * setting only: written where the user's own settings are, and applied at once).
 */
import type { AgentManager } from "../../agents/agent/agentManager";
import type { BudgetBook } from "../../agents/budget/budgetBook";
import type { BudgetGroup, BudgetGroupSource } from "../../agents/budget/budgetGroups";
import { dollars, MAX_CAP_USD } from "../../core/budget";
import { vscode } from "../api";

export const BUDGET_COMMANDS = {
  raise: "arcadia.budget.raise",
  stop: "arcadia.budget.stop",
  cap: "arcadia.budget.cap",
  capRace: "arcadia.budget.capRace",
  capDay: "arcadia.budget.capDay",
} as const;

/** The cap typed, or why it is refused; `aboveUsd`: it must be more than that (a raise), else 0 or more. */
export function typedCap(text: string, aboveUsd?: number): number | string {
  const value = Number(text.trim().replace(/^\$/, ""));
  if (text.trim() === "" || !Number.isFinite(value)) return "Write an amount in dollars, e.g. 10";
  if (aboveUsd !== undefined && value <= aboveUsd) return `Above what it spent: more than ${dollars(aboveUsd)}`;
  if (value < 0) return "0 or more (0 pauses it now)";
  if (value > MAX_CAP_USD) return `At most $${MAX_CAP_USD}`;
  return value;
}

/** @param groups the races as budget groups (agents/races/raceBudget.ts). */
export function registerBudgetCommands(book: BudgetBook, manager: AgentManager, groups: BudgetGroupSource): vscode.Disposable {
  const raise = async (agentId: unknown) => {
    if (typeof agentId !== "string" || !manager.agentInfo(agentId)) return;
    const name = manager.agentInfo(agentId)?.name ?? "this agent";
    const verdict = book.verdict(agentId);
    const { scope, capUsd } = book.capOf(agentId);
    const spent = verdict.paused ? verdict.spentUsd : 0;
    const race = scope === "group" ? groups.groupOf(agentId) : undefined;
    const whose = scope === "day" ? "today's cap for all agents" : race ? `the ${race.kind} ${race.name}'s cap for all its agents` : `${name}'s cap`;
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
  /** "Cap this race at…": from a member's card (its agent id), the compare tab (`{ raceGroup }`) or the palette (a race picked). */
  const capRace = async (given: unknown) => {
    const group = typeof given === "string" ? groups.groupOf(given) : (groupNamed(groups, given) ?? (await pickGroup(groups)));
    if (!group) return;
    const figures = book.groupInput(group);
    const spentUsd = figures?.spend?.usd ?? 0;
    // Paused at it (its compare tab's Raise…): a new cap must be above what was spent, or nothing changes.
    const above = figures?.capUsd != null && (figures.capUsd === 0 || spentUsd >= figures.capUsd) ? spentUsd : undefined;
    const text = await vscode.window.showInputBox({
      title: `${above === undefined ? "Cap" : "Raise"} the ${group.kind} ${group.name}'s spending`,
      prompt:
        `${dollars(spentUsd)} spent so far by its ${group.members.length} agents. Dollars for all of them together, every session of each. ` +
        "At the cap each one's next tool call is denied; 0 pauses them now.",
      value: figures?.capUsd == null ? "" : (above === undefined ? figures.capUsd : above + Math.max(1, figures.capUsd)).toFixed(2),
      validateInput: (v) => {
        const typed = typedCap(v, above);
        return typeof typed === "string" ? typed : undefined;
      },
    });
    const typed = text === undefined ? undefined : typedCap(text, above);
    if (typeof typed !== "number") return;
    const refused = book.capGroup(group.id, typed);
    if (refused) void vscode.window.showWarningMessage(`Arcadia: ${refused}`);
  };
  /** "Cap all agents' spending per day…": the user's setting, empty for no cap. */
  const capDay = async () => {
    const now = book.settings.perDayUsd;
    const text = await vscode.window.showInputBox({
      title: "Cap all agents' spending per day",
      prompt:
        `${book.summary() ?? "Nothing spent today."} Dollars for all of this window's agents per local day. ` +
        "At the cap every agent's next tool call is denied; 0 pauses them now; empty: no cap.",
      value: now === null ? "" : now.toFixed(2),
      validateInput: (v) => {
        const typed = v.trim() === "" ? null : typedCap(v);
        return typeof typed === "string" ? typed : undefined;
      },
    });
    const typed = text === undefined ? undefined : text.trim() === "" ? null : typedCap(text);
    if (typed === undefined || typeof typed === "string") return;
    await vscode.workspace.getConfiguration("arcadia").update("budget.perDay", typed, vscode.ConfigurationTarget.Global);
  };
  const stop = (agentId: unknown) => {
    if (typeof agentId === "string" && manager.agentInfo(agentId)) manager.close(agentId);
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand(BUDGET_COMMANDS.raise, raise),
    vscode.commands.registerCommand(BUDGET_COMMANDS.stop, stop),
    vscode.commands.registerCommand(BUDGET_COMMANDS.cap, cap),
    vscode.commands.registerCommand(BUDGET_COMMANDS.capRace, capRace),
    vscode.commands.registerCommand(BUDGET_COMMANDS.capDay, capDay),
  );
}

async function pickAgent(manager: AgentManager): Promise<string | undefined> {
  const items = manager.agentIds().flatMap((id) => {
    const info = manager.agentInfo(id);
    return info ? [{ label: info.name, description: info.cwd, id }] : [];
  });
  return (await vscode.window.showQuickPick(items, { title: "Cap which agent's spending?" }))?.id;
}

/** The group a compare tab names (`{ raceGroup: id }`), if it still exists. */
function groupNamed(groups: BudgetGroupSource, given: unknown): BudgetGroup | undefined {
  const id = typeof given === "object" && given !== null ? (given as { raceGroup?: unknown }).raceGroup : undefined;
  return typeof id === "string" ? groups.groups().find((g) => g.id === id) : undefined;
}

async function pickGroup(groups: BudgetGroupSource): Promise<BudgetGroup | undefined> {
  const items = groups.groups().map((group) => ({ label: group.name, description: `${group.kind} of ${group.members.length} agents`, group }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage("Arcadia: no race to cap. Start one with Run on Several Agents….");
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { title: "Cap which race's spending?" }))?.group;
}
