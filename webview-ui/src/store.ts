import { dequal } from "dequal";
import type { AgentLiveView, AgentView, ExtensionMessage, NoticeView } from "../../src/shared/protocol";

/** Everything the panel shows; derived only from the extension's messages. */
export interface PanelState {
  /** Sorted by `index`, one entry per id. */
  agents: AgentView[];
  /**
   * Per agent id: its MCP calls in flight and its open prompts. Only agents with something live
   * have an entry, so a card with nothing live gets `undefined` and never re-renders for it.
   */
  live: ReadonlyMap<string, AgentLiveView>;
  notice: NoticeView | null;
  /** The card the extension asked to bring into view last, and a count that changes each time. */
  reveal: { id: string; seq: number } | null;
}

const NO_LIVE: ReadonlyMap<string, AgentLiveView> = new Map();

export const initialState: PanelState = { agents: [], live: NO_LIVE, notice: null, reveal: null };

const byIndex = (a: AgentView, b: AgentView) => a.index - b.index || a.id.localeCompare(b.id);

// Cards are memoized on the agent object (and its live view). Keeping the old object when nothing
// in it changed means a snapshot (sent on every show) re-renders only the cards that really differ.
function same<T>(a: T, b: T): boolean {
  return a === b || dequal(a, b);
}

function dedupe(agents: AgentView[]): AgentView[] {
  // The last entry for an id wins: the protocol promises unique ids, the panel does not rely on it.
  const byId = new Map<string, AgentView>();
  for (const agent of agents) byId.set(agent.id, agent);
  return [...byId.values()];
}

/** A live view worth keeping: well formed, with at least one call or prompt. */
function isLiveView(value: unknown): value is AgentLiveView {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.agentId === "string" &&
    Array.isArray(v.calls) &&
    Array.isArray(v.prompts) &&
    (v.sharedFiles === undefined || Array.isArray(v.sharedFiles)) &&
    (v.stillRunning === undefined || Array.isArray(v.stillRunning))
  );
}

const hasAnything = (live: AgentLiveView) =>
  live.calls.length > 0 ||
  live.prompts.length > 0 ||
  (live.sharedFiles?.length ?? 0) > 0 ||
  Boolean(live.worktree) ||
  Boolean(live.sessionEdits) ||
  Boolean(live.usage) ||
  Boolean(live.limit) ||
  (live.history?.length ?? 0) > 0 ||
  (live.stillRunning?.length ?? 0) > 0 ||
  Boolean(live.reviewComments) ||
  Boolean(live.race);

/** `live` from a snapshot, reusing the previous objects where nothing changed. */
function liveFromSnapshot(previous: ReadonlyMap<string, AgentLiveView>, views: readonly unknown[]): ReadonlyMap<string, AgentLiveView> {
  const next = new Map<string, AgentLiveView>();
  for (const view of views) {
    if (!isLiveView(view) || !hasAnything(view)) continue;
    const old = previous.get(view.agentId);
    next.set(view.agentId, old && same(old, view) ? old : view);
  }
  return next.size === 0 ? NO_LIVE : next;
}

function without(live: ReadonlyMap<string, AgentLiveView>, agentId: string): ReadonlyMap<string, AgentLiveView> {
  if (!live.has(agentId)) return live;
  const next = new Map(live);
  next.delete(agentId);
  return next.size === 0 ? NO_LIVE : next;
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
      return { ...state, agents, live: liveFromSnapshot(state.live, message.live ?? []), notice: message.notice ?? null };
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
    case "agentLive": {
      // Replaces the agent's previous live view. It may come before the agent's first update:
      // it is kept, and shown as soon as the card is.
      const next = message.live;
      const old = state.live.get(next.agentId);
      if (!hasAnything(next)) return old ? { ...state, live: without(state.live, next.agentId) } : state;
      if (old && same(old, next)) return state;
      return { ...state, live: new Map(state.live).set(next.agentId, next) };
    }
    case "agentRemoved": {
      const known = state.agents.some((a) => a.id === message.id);
      if (!known && !state.live.has(message.id)) return state;
      const agents = known ? state.agents.filter((a) => a.id !== message.id) : state.agents;
      return { ...state, agents, live: without(state.live, message.id) };
    }
    case "notice":
      return { ...state, notice: message.notice ?? null };
    case "revealAgent":
      return { ...state, reveal: { id: message.id, seq: (state.reveal?.seq ?? 0) + 1 } };
    default:
      return state;
  }
}

type Shape = Record<string, unknown>;

/**
 * One shape check per message type. Typed as a record over the protocol's message types, so a
 * type added to ExtensionMessage and forgotten here fails to compile instead of being dropped.
 */
const SHAPE_CHECKS: { [T in ExtensionMessage["type"]]: (m: Shape) => boolean } = {
  snapshot: (m) => Array.isArray(m.agents) && (m.live === undefined || Array.isArray(m.live)),
  agentUpdated: (m) => typeof m.agent === "object" && m.agent !== null && typeof (m.agent as AgentView).id === "string",
  agentRemoved: (m) => typeof m.id === "string",
  agentLive: (m) => isLiveView(m.live),
  notice: (m) => "notice" in m,
  revealAgent: (m) => typeof m.id === "string",
};

/** A cheap shape check on `window` messages: anything else posted to the page is ignored. */
export function isExtensionMessage(data: unknown): data is ExtensionMessage {
  if (typeof data !== "object" || data === null) return false;
  const m = data as Shape;
  // Own keys only: a message typed "constructor" or "toString" is not a message.
  if (typeof m.type !== "string" || !Object.prototype.hasOwnProperty.call(SHAPE_CHECKS, m.type)) return false;
  return SHAPE_CHECKS[m.type as ExtensionMessage["type"]](m);
}

// 3: agents carry `needsYou`, `reconnecting` and `exitMessage` (statuses needsYou, compacting).
const STATE_VERSION = 3;

/** What `vscode.setState` keeps, so a re-shown view paints at once, before its snapshot arrives. */
export function toSaved(state: PanelState): unknown {
  return { version: STATE_VERSION, agents: state.agents, live: [...state.live.values()], notice: state.notice };
}

export function fromSaved(saved: unknown): PanelState {
  if (typeof saved !== "object" || saved === null) return initialState;
  const s = saved as { version?: unknown; agents?: unknown; live?: unknown; notice?: unknown };
  if (s.version !== STATE_VERSION || !Array.isArray(s.agents)) return initialState;
  return reduce(initialState, {
    type: "snapshot",
    agents: s.agents as AgentView[],
    live: Array.isArray(s.live) ? (s.live as AgentLiveView[]) : [],
    notice: (s.notice as NoticeView | null) ?? null,
  });
}
