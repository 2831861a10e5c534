/**
 * After a window reload, the cards of saved agents whose terminals are not bound again yet: shown
 * at once (never the empty panel while agents exist), marked `reconnecting`, with the state read
 * from their transcript's tail — not the one saved before the reload, which may be stale (a tool
 * that finished meanwhile) — and their claude's status file when the monitor already knows it (by
 * the saved shell pid). Rows and status come from the same functions as a bound card's
 * (core/agent/shownRows.ts, displayStatus.ts), so the card reads as it did before the reload.
 * Replaced by the real card when the agent is re-bound, or removed when its terminal is given up on.
 */
import type { AgentState } from "../../core/agent";
import { contextUsage, shownRows } from "../../core/agent";
import { type FollowerOptions, SessionFollower, TurnLog } from "../../core/engine";
import type { TranscriptEvent } from "../../core/transcript";
import { transcriptPath } from "../../core/transcript";
import { noWatch } from "../../core/util";
import type { AgentFacts } from "../../shared/protocol";
import { displayStatus, waitsOnPermission } from "./displayStatus";
import type { AgentBinding, ClaudeProcessState } from "../ports";
import { toolView } from "./toolView";

/** The card before anything is read: its name and place, status starting. */
export function placeholderView(binding: AgentBinding): AgentFacts {
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
    ...(binding.sandboxed ? { sandboxed: true } : {}),
  };
}

/** What a transcript's tail says: the state and the current turn's events. */
export interface TranscriptTail {
  state: AgentState;
  events: readonly TranscriptEvent[];
}

/** One read, as a restore does; nothing kept open. */
export async function readTail(binding: AgentBinding, projectDir: string, options: FollowerOptions): Promise<TranscriptTail> {
  const turn = new TurnLog();
  const follower = new SessionFollower(transcriptPath(projectDir, binding.sessionId), {
    ...options,
    restore: true,
    watch: noWatch,
    onReset: () => turn.clear(),
  });
  follower.onDidChange(({ events }) => turn.add(events));
  try {
    await follower.start();
  } finally {
    await follower.stop();
  }
  return { state: follower.state, events: turn.events };
}

/** The card as its transcript's tail and, when known, its claude's status file say. */
export function reconnectingView(binding: AgentBinding, tail: TranscriptTail, process: ClaudeProcessState | undefined): AgentFacts {
  const { state, events } = tail;
  const status = process?.state === "running" ? process.status : undefined;
  const rows = shownRows(events, state, {
    sessionId: binding.sessionId,
    hookTools: [],
    waits: new Map(),
    parentOfSubagent: () => undefined,
    idle: status !== undefined ? status === "idle" : state.status === "waiting",
    waitingOnPermission: waitsOnPermission(process),
  });
  const runningTools = rows.filter((r) => r.outcome === "running").map((r) => r.name);
  const shown = displayStatus(state, process, false, { promptKinds: [], compacting: false, runningTools });
  return {
    ...placeholderView(binding),
    status: shown.status,
    statusSource: shown.source,
    needsYou: shown.needsYou,
    lastTurn: state.lastTurn,
    tools: rows.map((row) => toolView(row, binding.sandboxed === true)),
    context: contextUsage(state.usage ?? null),
  };
}
