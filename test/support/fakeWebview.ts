/** A webview page as the host sees it (vscode/webviewHost.ts), without VS Code: what it is given, what it is sent, and its closing. */
import type * as vscode from "vscode";
import { vi } from "vitest";
import type { PanelHandlers } from "../../src/shared/protocols/panel";
import type { PageOwner } from "../../src/vscode/webviewHost";

export const fakeJoinPath = (base: vscode.Uri, ...parts: string[]) => `${String(base)}/${parts.join("/")}` as unknown as vscode.Uri;

export const FAKE_EXTENSION_URI = "ext" as unknown as vscode.Uri;

export function fakePage() {
  const posted: unknown[] = [];
  let receive: ((raw: unknown) => unknown) | undefined;
  const closeListeners = new Set<() => void>();
  const webview = {
    options: {} as vscode.WebviewOptions,
    html: "",
    cspSource: "https://file+.vscode-resource.vscode-cdn.net",
    asWebviewUri: (uri: vscode.Uri) => uri,
    postMessage: async (message: unknown) => (posted.push(message), true),
    onDidReceiveMessage: (listener: (raw: unknown) => unknown) => {
      receive = listener;
      return { dispose: () => (receive = undefined) };
    },
  };
  const owner: PageOwner = {
    webview: webview as unknown as vscode.Webview,
    onDidDispose: (listener: () => void) => {
      closeListeners.add(listener);
      return { dispose: () => closeListeners.delete(listener) };
    },
  };
  return {
    owner,
    webview,
    posted,
    /** What the page sends, as VS Code hands it over; resolves once the host has handled it. */
    send: async (raw: unknown) => void (await receive?.(raw)),
    /** The host still listens to the page / to its closing. */
    listening: () => receive !== undefined,
    closeListeners: () => closeListeners.size,
    /** The user closes the tab (or the view goes). */
    close: () => [...closeListeners].forEach((l) => l()),
  };
}

/** A spy for every message the panel may send (the compiler asks for a new one). */
export function panelHandlerSpies() {
  return {
    webviewReady: vi.fn(),
    openClaude: vi.fn(),
    showSessions: vi.fn(),
    focusAgent: vi.fn(),
    closeAgent: vi.fn(),
    renameAgent: vi.fn(),
    noticeAction: vi.fn(),
    cancelCall: vi.fn(),
    completeCall: vi.fn(),
    stopCommand: vi.fn(),
    answerPrompt: vi.fn(),
    revealPrompt: vi.fn(),
    restartAgent: vi.fn(),
    cardsVisible: vi.fn(),
    openClaudeInWorktree: vi.fn(),
    worktreeAction: vi.fn(),
    reviewAction: vi.fn(),
    budgetAction: vi.fn(),
    runOnSeveralAgents: vi.fn(),
    queueTasks: vi.fn(),
    showQueue: vi.fn(),
    showRace: vi.fn(),
    retryRaceMember: vi.fn(),
  } satisfies PanelHandlers;
}
