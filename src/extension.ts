/**
 * VS Code entry point: wiring only, in the order the parts are made (src/wiring): the tools and
 * the loopback server, the agents over VS Code's terminals, the cards and their one store, the
 * panel with the status bar and notifications, the commands. The agents and their tools need each
 * other; `Late` makes that one cycle explicit.
 */
import type { CardStore } from "./agents/cards/cardStore";
import type { AgentManager } from "./agents/agent/agentManager";
import { projectDirFor } from "./core/transcript";
import { DisposableStore } from "./core/util";
import type { ArcadiaViewProvider } from "./vscode/panel/viewProvider";
import { presenceOf } from "./vscode/panelPresence";
import { vscode } from "./vscode/api";
import { activationTimer } from "./vscode/activationTiming";
import { wireAgents } from "./wiring/agentWiring";
import { wireCards } from "./wiring/cardWiring";
import { registerCommands } from "./wiring/commandWiring";
import { Late } from "./wiring/late";
import { wirePanel } from "./wiring/panelWiring";
import { wireTools } from "./wiring/toolWiring";

/** What deactivate() hands VS Code to wait for: the server closed, followers and watchers stopped. */
let shutdown: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const timer = activationTimer();
  const store = new DisposableStore();
  context.subscriptions.push(store);
  const log = store.add(vscode.window.createOutputChannel("Arcadia", { log: true }));
  const late = { agents: new Late<AgentManager>("the agent manager"), cards: new Late<CardStore>("the card store") };
  const panel = new Late<ArcadiaViewProvider>("the panel");
  const tools = wireTools(context, log, late, store);
  const agents = wireAgents(context, log, tools, presenceOf(panel));
  late.agents.bind(agents.manager);
  const cards = wireCards(context, log, { ...tools, ...agents }, store);
  late.cards.bind(cards.cards);
  const ui = wirePanel(context, log, { ...tools, ...agents, ...cards, panel }, store);
  registerCommands(context, log, { ...tools, ...agents, ...cards, ...ui, panel }, store);
  // The broker first: closing the server would abort pending hook requests, read as "answered in the terminal".
  shutdown = () => (tools.permissions.dispose(), Promise.all([tools.closeServer(), agents.processes.stop(), agents.manager.dispose()]).then(() => undefined));
  // Just after activation, not inside it: agents Arcadia launched before a reload need its server
  // (MCP tools, hooks), and cards come back before the panel is opened (status bar counts).
  setImmediate(() => {
    if (agents.bindings.load().some((b) => (b.launchFiles ?? []).length > 0)) void tools.server();
    void agents.manager.restore();
  });
  log.info(`${timer.summary()}; transcripts for this workspace live in ${projectDirFor(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath)}`);
}

/** VS Code waits for the returned promise (within its shutdown limit) before the host goes. */
export function deactivate(): Promise<void> | undefined {
  const cleanup = shutdown;
  shutdown = undefined;
  return cleanup?.();
}
