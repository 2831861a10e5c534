/**
 * After a window reload, the cards of saved agents whose terminals are not bound again yet: shown
 * at once (never the empty panel while agents exist), marked `reconnecting`, with the state read
 * from their transcript's tail — not the one saved before the reload, which may be stale (a tool
 * that finished meanwhile). Replaced by the real card when the agent is re-bound, or removed when
 * its terminal is given up on.
 */
import { shownRows } from "../core/agent/shownRows";
import { contextUsage } from "../core/agent/contextUsage";
import { type FollowerOptions, SessionFollower } from "../core/engine/sessionFollower";
import { TurnLog } from "../core/engine/turnLog";
import { transcriptPath } from "../core/transcript/projectDir";
import { noWatch } from "../core/util/fileWatch";
import type { AgentView } from "../shared/protocol";
import type { AgentBinding } from "./ports";
import { toolView } from "./toolView";

/** The card before anything is read: its name and place, status starting. */
export function placeholderView(binding: AgentBinding): AgentView {
  return {
    id: binding.agentId,
    name: binding.name,
    index: binding.index,
    status: "starting",
    lastTurn: "none",
    tools: [],
    focused: false,
    retry: null,
    context: null,
    statusSource: "transcript",
    needsYou: null,
    reconnecting: true,
    exitMessage: null,
  };
}

/** The card as its transcript's tail says (one read, as a restore does; nothing kept open). */
export async function reconnectingView(binding: AgentBinding, projectDir: string, options: FollowerOptions): Promise<AgentView> {
  const turn = new TurnLog();
  const follower = new SessionFollower(transcriptPath(projectDir, binding.sessionId), { ...options, restore: true, watch: noWatch, onReset: () => turn.clear() });
  follower.onDidChange(({ events }) => turn.add(events));
  try {
    await follower.start();
  } finally {
    await follower.stop();
  }
  const state = follower.state;
  return {
    ...placeholderView(binding),
    status: state.status,
    lastTurn: state.lastTurn,
    // The same rows a live card makes, with no live sources: what the transcript says.
    tools: shownRows(turn.events, state, undefined).map(toolView),
    context: contextUsage(state.usage ?? null),
  };
}
