/**
 * Arcadia's own tools for the agents it launches, what their calls wait on (approvals, the call
 * tracker, commands left running), the hook endpoint, and the loopback server that serves both:
 * started on first need (the first agent, or agents that come back after a reload).
 */
import type { AgentManager } from "../agents/agent/agentManager";
import type { CardStore } from "../agents/cards/cardStore";
import { ApprovalQueue, StillRunningCommands, ToolCallTracker } from "../core/mcp";
import type { RunningLoopbackServer } from "../core/server";
import { linkedResources } from "../core/tools";
import type { DisposableStore } from "../core/util";
import type { vscode } from "../vscode/api";
import type { BudgetBook } from "../agents/budget/budgetBook";
import { createBudgetBook } from "../vscode/budget/budgetBookHost";
import { createHookEndpoint, type HookParts } from "../vscode/server/hookEndpoint";
import { startArcadiaServer } from "../vscode/server/mcpHost";
import { createVscodeToolPorts } from "../vscode/tools";
import type { Late } from "./late";

export interface ToolParts extends HookParts {
  approvals: ApprovalQueue;
  tools: ReturnType<typeof createVscodeToolPorts>;
  tracker: ToolCallTracker;
  stillRunning: StillRunningCommands;
  /** The server, started on the first call. */
  server(): Promise<RunningLoopbackServer | undefined>;
  /** Closes the server if it was started. */
  closeServer(): Promise<void>;
  agentName(agentId: string | undefined): string | undefined;
  /** Each agent's budget: the hooks' gate and the tools read it on every call; the cards show it. */
  budget: BudgetBook;
}

/** The parts made after the tools that the tools read at run time (a call names its agent; a tool may tell it its card). */
export interface LaterParts {
  agents: Late<AgentManager>;
  cards: Late<CardStore>;
}

export function wireTools(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, later: LaterParts, store: DisposableStore): ToolParts {
  const agents = later.agents;
  const agentName = (id: string | undefined) => (id ? agents.get().agentInfo(id)?.name : undefined);
  const approvals = store.add(new ApprovalQueue());
  const agentCwd = (id: string) => agents.get().agentInfo(id)?.cwd;
  const agentCard = (id: string) => later.cards.get().card(id);
  const tools = store.add(createVscodeToolPorts({ approvals, agentLabel: (id) => agentName(id) ?? "Agent", agentCwd, agentCard }));
  const budgetParts = createBudgetBook(context, log, { name: (id) => agentName(id), focus: (id) => agents.get().focus(id) });
  store.add(budgetParts.owned);
  const budget = budgetParts.book;
  // A paused agent's own Arcadia tools refuse too, where the user's settings silence hooks.
  const tracker = store.add(new ToolCallTracker(linkedResources(tools.ports), { refusal: (id) => budget.refusal(id) }));
  const commands = tools.ports.commands;
  const whenEnded = (id: string) => commands.whenEnded?.(id) ?? Promise.resolve();
  const stillRunning = store.add(new StillRunningCommands(tracker, { whenEnded, interrupt: (id) => commands.interrupt(id) }));
  const hookParts = createHookEndpoint(log, { isKnown: (id) => agents.get().agentInfo(id) !== undefined, name: agentName }, budget, budgetParts.alarm);
  store.add(hookParts.collisions);
  let started: Promise<RunningLoopbackServer | undefined> | undefined;
  // The sandbox is looked for with the server (the first agent): the panel says early if there is none.
  const server = () =>
    (started ??= startArcadiaServer(context, log, { tracker, ports: tools.ports, hooks: hookParts.hooks }).finally(
      () => void tools.ports.sandbox?.availability(),
    ));
  const closeServer = async () => void (await started)?.close();
  return { ...hookParts, approvals, tools, tracker, stillRunning, server, closeServer, agentName, budget };
}
