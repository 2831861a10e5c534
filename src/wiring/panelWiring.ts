/**
 * What the user sees of the cards: the panel (its webview, what each of its messages does, the
 * cards fed to it), the status bar, notifications, the prompts desk and the panel's notices.
 */
import { PromptDesk } from "../agents/tools/promptDesk";
import type { DisposableStore } from "../core/util";
import { type CardSource, panelSnapshot } from "../vscode/panel/cardFeed";
import { panelPageBinding } from "../vscode/panel/messageRouter";
import { panelActions } from "../vscode/panel/panelActions";
import { ArcadiaViewProvider } from "../vscode/panel/viewProvider";
import { vscode } from "../vscode/api";
import { followAttention } from "../vscode/cards/attentionNotifications";
import { CardVisibility } from "../vscode/cards/cardVisibility";
import { ClaudeLauncher } from "../vscode/launch/claudeLauncher";
import { PanelNotice } from "../vscode/notices/panelNotice";
import { followPermissionPrompts } from "../vscode/cards/permissionNotifications";
import { SandboxNotice } from "../vscode/notices/sandboxNotice";
import { AgentStatusBar } from "../vscode/cards/statusBar";
import { PANEL_VIEW_ID } from "../vscode/viewIds";
import type { AgentParts } from "./agentWiring";
import type { CardParts } from "./cardWiring";
import type { Late } from "./late";
import type { ToolParts } from "./toolWiring";

export interface PanelParts {
  launcher: ClaudeLauncher;
  prompts: PromptDesk;
}

export function wirePanel(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  parts: ToolParts & AgentParts & CardParts & { panel: Late<ArcadiaViewProvider> },
  store: DisposableStore,
): PanelParts {
  const { manager, cards, permissions, approvals, tracker, tools, stillRunning } = parts;
  const focusAgent = (id: string) => manager.focus(id);
  const diffs = { ...tools.ports.diffs, reveal: (id: string) => tools.reveal(id) };
  const prompts = new PromptDesk({ approvals, tracker, permissions, diffs, focusAgent, log });
  const post = (message: Parameters<ArcadiaViewProvider["post"]>[0]) => parts.panel.get().post(message);
  const notice = new PanelNotice(post);
  const sandboxNotice = new SandboxNotice(notice, context.globalState);
  store.add(tools.onSandboxUnavailable((why) => (log.warn(`No sandbox for commands: ${why.reason}. ${why.fix}`), sandboxNotice.show(why))));
  store.add(parts.agentSandbox.onUnavailable((why) => sandboxNotice.showForAgents(why)));
  const launcher = new ClaudeLauncher(context, manager, cards, notice, log);
  const visibility = new CardVisibility({ visible: () => parts.panel.get().visible });
  // The cards with today's closed spend: the page's header total keeps it (after a reload too).
  const feed: CardSource = {
    cards: () => cards.cards(),
    onDidChangeCard: cards.onDidChangeCard,
    onDidRemoveCard: cards.onDidRemoveCard,
    closedToday: () => parts.closedSpend.today(),
  };
  const snapshot = () => panelSnapshot(feed, notice.current, parts.queueStatus.line());
  store.add(parts.queueStatus.onDidChange((line) => post({ type: "queueLine", line })));
  const actions = panelActions({ manager, snapshot, prompts, launcher, sandboxNotice, visibility, stillRunning });
  const provider = parts.panel.bind(store.add(new ArcadiaViewProvider(context.extensionUri, panelPageBinding(actions, log), feed, snapshot)));
  store.add(vscode.window.registerWebviewViewProvider(PANEL_VIEW_ID, provider, { webviewOptions: { retainContextWhenHidden: false } }));
  store.add(new AgentStatusBar(cards, "arcadia.showPanel", () => parts.budget.summary()));
  const seen = (id: string) => visibility.seen(id);
  store.add(followAttention({ cards, seen, pendingPermissions: (id) => permissions.pending(id).length, focusAgent }));
  const agentName = (id: string) => parts.agentName(id);
  store.add(followPermissionPrompts({ permissions, panel: provider, seen, prompts, agentName, focusAgent }));
  return { launcher, prompts };
}
