import { act, fireEvent, render, screen, within } from "@testing-library/react";
import type { AgentLiveView, AgentView, ExtensionMessage, LiveCallView, NoticeView, PromptView, ToolView } from "../../src/shared/protocol";
import type { CompareMessage } from "../../src/shared/protocols/compare";
import type { PanelMessage } from "../../src/shared/protocols/panel";
import type { ReaderMessage } from "../../src/shared/protocols/reader";
import type { SessionsMessage } from "../../src/shared/protocols/sessions";
import { App } from "../src/App";
import { setVsCodeApi } from "../src/vscodeApi";

/** What any page posts. */
type WebviewMessage = PanelMessage | SessionsMessage | ReaderMessage | CompareMessage;

export function agent(overrides: Partial<AgentView> = {}): AgentView {
  const index = overrides.index ?? 1;
  return {
    id: `agent-${index}`,
    name: `Agent #${index}`,
    index,
    status: "waiting",
    lastTurn: "none",
    tools: [],
    focused: false,
    retry: null,
    context: null,
    statusSource: "transcript",
    needsYou: null,
    reconnecting: false,
    exitMessage: null,
    ...overrides,
  };
}

/** What the extension sends when the view asks; live views default to none. */
export function snapshot(agents: AgentView[], notice: NoticeView | null = null, live: AgentLiveView[] = []) {
  return { type: "snapshot" as const, agents, live, notice };
}

export function liveCall(overrides: Partial<LiveCallView> & { callId: string }): LiveCallView {
  return {
    toolUseId: null,
    tool: "execute_command",
    display: "sleep 1000",
    startedAt: 0,
    runningSince: overrides.startedAt ?? 0,
    completeHint: "Return the output so far",
    ...overrides,
  };
}

export function prompt(overrides: Partial<PromptView> & { id: string }): PromptView {
  return { kind: "permission", subject: "Bash: rm -rf build", toolUseId: null, canAlwaysAllow: false, ...overrides };
}

export function agentLive(agentId: string, parts: Partial<Omit<AgentLiveView, "agentId">> = {}) {
  return { type: "agentLive" as const, live: { agentId, calls: [], prompts: [], sharedFiles: [], worktree: null, sessionEdits: null, ...parts } };
}

export function tool(overrides: Partial<ToolView> & { id: string }): ToolView {
  return { name: "Read", label: `Reading ${overrides.id}.ts`, parent: null, outcome: "running", background: false, ...overrides };
}

/** A fake VS Code host: records what the panel posts, keeps what it saves. */
export function fakeVsCode(saved?: unknown) {
  const posted: WebviewMessage[] = [];
  let state = saved;
  setVsCodeApi({
    postMessage: (m) => posted.push(m as WebviewMessage),
    getState: () => state,
    setState: (s) => {
      state = s;
    },
  });
  return { posted, state: () => state };
}

/** The panel as VS Code shows it, plus a way to send it what the extension would. */
export function renderPanel(options: { saved?: unknown } = {}) {
  const host = fakeVsCode(options.saved);
  const view = render(<App />);
  const send = (message: ExtensionMessage) =>
    act(() => {
      window.dispatchEvent(new MessageEvent("message", { data: message }));
    });
  return { ...view, ...host, send };
}

/** The text box inside a toolkit text field (it lives in the field's shadow root). */
export function innerInput(field: HTMLElement): HTMLInputElement {
  const input = field.shadowRoot?.querySelector("input");
  if (!input) throw new Error("text field has no input");
  return input;
}

/** An agent's line in the overview. */
export function line(id = "agent-1"): HTMLElement {
  const found = screen.getAllByTestId("agent-line").find((l) => l.dataset.agentId === id);
  if (!found) throw new Error(`no overview line for ${id}`);
  return found;
}

/** An agent's details (its card below the overview), shown first with its line's chevron if another agent's show. */
export function details(id = "agent-1"): HTMLElement {
  const shown = screen.queryByTestId("agent-card");
  if (shown?.dataset.agentId !== id) fireEvent.click(within(line(id)).getByTestId("show-details"));
  const card = screen.getByTestId("agent-card");
  if (card.dataset.agentId !== id) throw new Error(`the details of ${id} do not show`);
  return card;
}

/** An agent's prompts under the overview (undefined when it has none). */
export function promptsOf(id = "agent-1"): HTMLElement | undefined {
  return screen.queryAllByTestId("agent-prompts").find((p) => p.dataset.agentId === id);
}
