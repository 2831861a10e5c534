/**
 * What each message from the panel does (shared/protocols/panel.ts: a message added there fails to
 * compile until it has its handler here). The panel's buttons do what the palette's commands do,
 * by calling them (one code path per action); the rest goes to the component that owns it.
 */
import { vscode } from "../api";
import type { AgentManager } from "../../agents/agent/agentManager";
import type { PromptDesk } from "../../agents/tools/promptDesk";
import type { PanelHandlers, PanelSnapshot } from "../../shared/protocols/panel";
import type { ClaudeLauncher } from "../launch/claudeLauncher";
import type { SandboxNotice } from "../notices/sandboxNotice";
import { BUDGET_COMMANDS } from "../budget/budgetCommands";
import { REVIEW_COMMANDS } from "../review/reviewComments";
import { WORKTREE_COMMANDS } from "../worktrees/worktreeCommands";
import { RACE_COMMANDS } from "../races/races";

export interface PanelActionDeps {
  manager: AgentManager;
  /** The answer to `webviewReady`: every card and the notice. */
  snapshot(): PanelSnapshot;
  prompts: PromptDesk;
  launcher: ClaudeLauncher;
  sandboxNotice: SandboxNotice;
  /** Which cards the user can see (for notifications). */
  visibility: { set(ids: readonly string[]): void };
  /** Commands left running after Complete: Stop. */
  stillRunning: { stop(id: string): boolean };
}

export function panelActions({ manager, snapshot, prompts, launcher, sandboxNotice, visibility, stillRunning }: PanelActionDeps): PanelHandlers {
  return {
    webviewReady: () => {
      // Not awaited: saved agents still finding their terminals come as reconnecting cards now,
      // and each as itself once bound (never the empty panel while agents exist).
      void manager.restore();
      return snapshot();
    },
    openClaude: async () => void (await launcher.open()),
    openClaudeInWorktree: async () => void (await launcher.openInWorktree()),
    worktreeAction: (m) => void vscode.commands.executeCommand(WORKTREE_COMMANDS[m.action], m.id),
    reviewAction: (m) => void vscode.commands.executeCommand(REVIEW_COMMANDS.send, m.id),
    budgetAction: (m) => void vscode.commands.executeCommand(BUDGET_COMMANDS[m.action], m.id),
    showSessions: () => void vscode.commands.executeCommand("arcadia.openSessions"),
    runOnSeveralAgents: () => void vscode.commands.executeCommand(RACE_COMMANDS.run),
    queueTasks: () => void vscode.commands.executeCommand("arcadia.queueTasks"),
    showQueue: () => void vscode.commands.executeCommand("arcadia.showQueue"),
    showRace: (m) => void vscode.commands.executeCommand(RACE_COMMANDS.compare, m.raceId),
    retryRaceMember: (m) => void vscode.commands.executeCommand(RACE_COMMANDS.retry, m.id),
    focusAgent: (m) => manager.focus(m.id),
    closeAgent: (m) => manager.close(m.id),
    renameAgent: (m) => manager.rename(m.id, m.name),
    cancelCall: (m) => void vscode.commands.executeCommand("arcadia.cancelToolCall", m.callId),
    completeCall: (m) => void vscode.commands.executeCommand("arcadia.completeToolCall", m.callId),
    stopCommand: (m) => void stillRunning.stop(m.id),
    answerPrompt: (m) => prompts.answer(m.id, m.decision),
    revealPrompt: (m) => prompts.reveal(m.id),
    restartAgent: (m) => launcher.restart(m.id),
    noticeAction: async (m) => {
      if (!(await sandboxNotice.act(m.command))) await launcher.noticeAction(m.command);
    },
    cardsVisible: (m) => visibility.set(m.ids),
  };
}
