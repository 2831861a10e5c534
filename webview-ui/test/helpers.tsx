import { act, fireEvent, render, screen, within } from "@testing-library/react";
import type { AgentFacts, CardView, ExtensionMessage, LiveCallView, LiveFacts, NoticeView, PromptView, ToolView } from "../../src/shared/protocol";
import type { CompareMessage } from "../../src/shared/protocols/compare";
import type { PanelMessage } from "../../src/shared/protocols/panel";
import type { ReaderMessage } from "../../src/shared/protocols/reader";
import type { SessionsMessage } from "../../src/shared/protocols/sessions";
import { App } from "../src/App";
import { vi } from "vitest";
import { setVsCodeApi } from "../src/vscodeApi";

/** What any page posts. */
type WebviewMessage = PanelMessage | SessionsMessage | ReaderMessage | CompareMessage;

/** A whole card: the agent part as given, nothing live unless given. */
export function agent(overrides: Partial<CardView> = {}): CardView {
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
    calls: [],
    prompts: [],
    sharedFiles: [],
    worktree: null,
    sessionEdits: null,
    ...overrides,
  };
}

/** What the extension sends when the view asks: every card, each with its live part from `live` (by agent id) when given. */
export function snapshot(cards: CardView[], notice: NoticeView | null = null, live: (Partial<LiveFacts> & { agentId: string })[] = []) {
  const withLive = cards.map((card) => {
    const { agentId: _id, ...parts } = live.find((l) => l.agentId === card.id) ?? { agentId: card.id };
    return { ...card, ...parts };
  });
  return { type: "snapshot" as const, cards: withLive, notice };
}

/** The agent part's keys, checked by the compiler against AgentFacts: a field added there must be named here. */
const AGENT_KEY_SET = {
  id: true,
  name: true,
  index: true,
  status: true,
  lastTurn: true,
  tools: true,
  focused: true,
  retry: true,
  context: true,
  statusSource: true,
  needsYou: true,
  reconnecting: true,
  exitMessage: true,
  sandboxed: true,
  sandboxMissing: true,
} satisfies Record<keyof AgentFacts, true>;
const AGENT_KEYS: string[] = Object.keys(AGENT_KEY_SET);

/**
 * How a test says that one part of a card changed: what its agent says (transcript, status file)
 * or what is live on it. `renderPanel`'s `send` merges it with the card it sent last and sends the
 * whole card, as the extension's card store does.
 */
export type CardPart = { type: "agentPart"; agent: Partial<AgentFacts> & { id: string } } | { type: "livePart"; agentId: string; live: Partial<LiveFacts> };

const agentFactsOf = (card: CardView) => Object.fromEntries(Object.entries(card).filter(([key]) => AGENT_KEYS.includes(key))) as AgentFacts;

export function agentPart(card: CardView): CardPart {
  return { type: "agentPart", agent: agentFactsOf(card) };
}

export function agentLive(agentId: string, parts: Partial<LiveFacts> = {}): CardPart {
  return { type: "livePart", agentId, live: { calls: [], prompts: [], sharedFiles: [], worktree: null, sessionEdits: null, ...parts } };
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
  // The page applies messages once a frame: the test says when a frame comes (`send` ends one at once).
  const frames: (() => void)[] = [];
  const endFrame = () =>
    act(() => {
      for (const callback of frames.splice(0)) callback();
    });
  const view = render(<App frame={(callback) => frames.push(callback)} />);
  // The cards as the extension last sent them, to send a card whole when a test changes one part.
  const sent = new Map<string, CardView>();
  /** A message arrives; the page applies it at its next frame. */
  const deliver = (message: unknown) =>
    act(() => {
      window.dispatchEvent(new MessageEvent("message", { data: message }));
    });
  const post = (message: unknown) => {
    deliver(message);
    endFrame();
  };
  const send = (message: ExtensionMessage | CardPart) => {
    if (message.type === "agentPart" || message.type === "livePart") {
      const id = message.type === "agentPart" ? message.agent.id : message.agentId;
      const known = sent.get(id);
      // The card store sends a card whole, its agent part first: a live part alone is no card.
      if (!known && message.type === "livePart") throw new Error(`a live part for ${id}, whose card was never sent`);
      const before = known ?? agent({ id });
      // A live part replaces all that was live on the card (what it no longer has is gone), as the board's view does.
      const card = message.type === "agentPart" ? { ...before, ...message.agent } : ({ ...agentFactsOf(before), ...message.live } as CardView);
      sent.set(id, card);
      return post({ type: "cardsChanged", changed: [card], removed: [] });
    }
    if (message.type === "snapshot") for (const card of message.cards ?? []) sent.set(card.id, card);
    if (message.type === "cardChanged") sent.set(message.card.id, message.card);
    if (message.type === "cardsChanged") for (const card of message.changed) sent.set(card.id, card);
    if (message.type === "cardRemoved") sent.delete(message.id);
    return post(message);
  };
  /** The extension's answer to the page's last request of that type, with the id it was asked with. */
  const answer = (type: string, result: unknown) => {
    const asked = [...host.posted].reverse().find((m) => m.type === type) as { requestId?: unknown } | undefined;
    if (typeof asked?.requestId !== "number") throw new Error(`the page sent no ${type} request`);
    if (typeof result === "object" && result !== null && (result as { type?: unknown }).type === "snapshot")
      for (const card of (result as { cards: CardView[] }).cards) sent.set(card.id, card);
    return act(async () => {
      window.dispatchEvent(new MessageEvent("message", { data: { type: "response", requestId: asked.requestId, ok: true, result } }));
      await Promise.resolve();
      for (const callback of frames.splice(0)) callback();
    });
  };
  return { ...view, ...host, send, answer, deliver, endFrame };
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

/** A moment later than now (the clock moved on; vi.useRealTimers() ends it): a ✕ that took a closed agent's place ignores clicks for a moment. */
export function settle(ms = 1_000) {
  vi.setSystemTime(Date.now() + ms);
}
