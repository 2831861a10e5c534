import type { AgentView, ExtensionMessage, NoticeView } from "../../src/shared/protocol";

/** Everything the panel shows; derived only from the extension's messages. */
export interface PanelState {
  /** Sorted by `index`, one entry per id. */
  agents: AgentView[];
  notice: NoticeView | null;
}

export const initialState: PanelState = { agents: [], notice: null };

const byIndex = (a: AgentView, b: AgentView) => a.index - b.index || a.id.localeCompare(b.id);

// Cards are memoized on the agent object. Keeping the old object when nothing in it changed means
// a snapshot (sent on every show) re-renders only the cards that really differ.
function same(a: AgentView, b: AgentView): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function dedupe(agents: AgentView[]): AgentView[] {
  // The last entry for an id wins: the protocol promises unique ids, the panel does not rely on it.
  const byId = new Map<string, AgentView>();
  for (const agent of agents) byId.set(agent.id, agent);
  return [...byId.values()];
}

/** The pure reducer over extension messages. Unknown messages leave the state as it is. */
export function reduce(state: PanelState, message: ExtensionMessage): PanelState {
  switch (message.type) {
    case "snapshot": {
      const previous = new Map(state.agents.map((a) => [a.id, a]));
      const agents = dedupe(message.agents ?? []).map((next) => {
        const old = previous.get(next.id);
        return old && same(old, next) ? old : next;
      });
      agents.sort(byIndex);
      return { agents, notice: message.notice ?? null };
    }
    case "agentUpdated": {
      const next = message.agent;
      const at = state.agents.findIndex((a) => a.id === next.id);
      if (at >= 0) {
        const old = state.agents[at];
        if (old && same(old, next)) return state;
        const agents = state.agents.slice();
        agents[at] = next;
        if (old?.index !== next.index) agents.sort(byIndex);
        return { ...state, agents };
      }
      return { ...state, agents: [...state.agents, next].sort(byIndex) };
    }
    case "agentRemoved": {
      if (!state.agents.some((a) => a.id === message.id)) return state;
      return { ...state, agents: state.agents.filter((a) => a.id !== message.id) };
    }
    case "notice":
      return { ...state, notice: message.notice ?? null };
    default:
      return state;
  }
}

const KNOWN = new Set(["snapshot", "agentUpdated", "agentRemoved", "notice"]);

/** A cheap shape check on `window` messages: anything else posted to the page is ignored. */
export function isExtensionMessage(data: unknown): data is ExtensionMessage {
  if (typeof data !== "object" || data === null) return false;
  const m = data as Record<string, unknown>;
  if (typeof m.type !== "string" || !KNOWN.has(m.type)) return false;
  switch (m.type) {
    case "snapshot":
      return Array.isArray(m.agents);
    case "agentUpdated":
      return typeof m.agent === "object" && m.agent !== null && typeof (m.agent as AgentView).id === "string";
    case "agentRemoved":
      return typeof m.id === "string";
    default:
      return "notice" in m;
  }
}

const STATE_VERSION = 1;

/** What `vscode.setState` keeps, so a re-shown view paints at once, before its snapshot arrives. */
export function toSaved(state: PanelState): unknown {
  return { version: STATE_VERSION, agents: state.agents, notice: state.notice };
}

export function fromSaved(saved: unknown): PanelState {
  if (typeof saved !== "object" || saved === null) return initialState;
  const s = saved as { version?: unknown; agents?: unknown; notice?: unknown };
  if (s.version !== STATE_VERSION || !Array.isArray(s.agents)) return initialState;
  return reduce(initialState, { type: "snapshot", agents: s.agents as AgentView[], notice: (s.notice as NoticeView | null) ?? null });
}
