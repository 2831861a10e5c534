/**
 * An agent's live state as a pure reducer over transcript events. It holds only what is live:
 * the tools in flight, the current API retry, the newest token usage. Finished tool calls are
 * derived from the events by agent/toolCalls.ts, never kept here.
 */
import type { TokenUsage, TranscriptEvent } from "../transcript";
import { type ActiveTool, ActiveTools } from "./activeTools";

export { type ActiveTool, ActiveTools } from "./activeTools";

/** `starting`: no transcript yet. `active`: a turn is running. `waiting`: the turn is over. */
export const AGENT_STATUSES = ["starting", "active", "waiting"] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];
/** As values too: `arcadia replay --json` documents each (README, tested). */
export const TURN_OUTCOMES = ["none", "completed", "interrupted", "error"] as const;
export type TurnOutcome = (typeof TURN_OUTCOMES)[number];

export interface ApiRetry {
  status?: number;
  message: string;
  attempt?: number;
  maxRetries?: number;
  retryInMs?: number;
}

export interface AgentState {
  status: AgentStatus;
  lastTurn: TurnOutcome;
  /** Persistent: each event changes it in O(1), whatever the number of tools open. */
  activeTools: ActiveTools;
  usage: TokenUsage | null;
  /** The API error being retried right now, if any. */
  retry: ApiRetry | null;
  /**
   * A text-only reply arrived with no tool in flight. In print mode no `turn_duration` follows,
   * so the turn is taken as over once an idle timer confirms nothing else comes.
   */
  awaitingIdle: boolean;
}

/** Fired by the engine's idle timer (see engine/sessionEngine.ts). */
export type AgentEvent = TranscriptEvent | { kind: "idleTimeout" };

export const initialAgentState: AgentState = Object.freeze({
  status: "starting",
  lastTurn: "none",
  activeTools: ActiveTools.empty,
  usage: null,
  retry: null,
  awaitingIdle: false,
}) as AgentState;

/** A scan, for the idle timer and events made without the interpreter's answer (it asks once per text reply, from its index). */
function hasForegroundTools(tools: ActiveTools): boolean {
  for (const tool of tools.unordered()) if (!tool.background && !isUnderBackground(tool, tools)) return true;
  return false;
}

function isUnderBackground(tool: ActiveTool, tools: ActiveTools): boolean {
  return tool.parent !== null && tools.get(tool.parent)?.background === true;
}

function endTurn(state: AgentState, outcome: TurnOutcome): AgentState {
  return { ...state, status: "waiting", lastTurn: outcome, retry: null, awaitingIdle: false };
}

export function reduceAgent(state: AgentState, event: AgentEvent): AgentState {
  switch (event.kind) {
    case "toolStart": {
      // The interpreter starts an id once per session (its repeats are copies); this is a guard.
      const activeTools = state.activeTools.withNew({
        id: event.id,
        name: event.name,
        label: event.label,
        action: event.action,
        parent: event.parent,
        startedAt: event.at,
        background: false,
      });
      if (activeTools === state.activeTools) return state;
      // Spelled out, not spread: one of these per tool (20,000 open tools), and a literal of a fixed
      // shape is several times cheaper than `{ ...state, … }`.
      return {
        // A sub-agent's tool does not reopen its parent's finished turn (background sub-agents).
        status: event.parent !== null && state.status === "waiting" ? "waiting" : "active",
        lastTurn: state.lastTurn,
        activeTools,
        usage: state.usage,
        retry: null,
        awaitingIdle: false,
      };
    }
    case "toolEnd": {
      const activeTools = state.activeTools.without(event.id);
      if (activeTools === state.activeTools) return state;
      return { status: state.status, lastTurn: state.lastTurn, activeTools, usage: state.usage, retry: state.retry, awaitingIdle: state.awaitingIdle };
    }
    case "backgroundLaunch": {
      const tool = state.activeTools.get(event.id);
      return tool ? { ...state, activeTools: state.activeTools.with({ ...tool, background: true }) } : state;
    }
    case "prompt":
    case "slashCommand":
      return { ...state, status: "active", retry: null, awaitingIdle: false };
    case "turnEnd":
      return endTurn(state, "completed");
    case "interrupt":
      return endTurn(state, "interrupted");
    case "apiError":
      if (event.final) return endTurn(state, "error");
      return {
        ...state,
        status: "active",
        awaitingIdle: false,
        retry: {
          status: event.status,
          message: event.message,
          attempt: event.retryAttempt,
          maxRetries: event.maxRetries,
          retryInMs: event.retryInMs,
        },
      };
    case "localCommandDone":
      // A local command (`/clear`, `/model`, …) never reaches the model: the prompt is free again.
      return { ...state, status: "waiting", retry: null, awaitingIdle: false };
    case "assistantText":
      return {
        ...state,
        status: "active",
        retry: null,
        // A reply that stopped for tool use is followed by its tool calls, not by silence.
        awaitingIdle: event.stopReason !== "tool_use" && !(event.toolsHoldTurn ?? hasForegroundTools(state.activeTools)),
      };
    case "idleTimeout":
      if (!state.awaitingIdle || state.status !== "active" || hasForegroundTools(state.activeTools)) return state;
      return endTurn(state, "completed");
    case "usage":
      // Replies that never reached the model (API errors: all zeros) say nothing about the context.
      return event.usage.inputTokens + event.usage.cacheReadInputTokens + event.usage.cacheCreationInputTokens > 0 ? { ...state, usage: event.usage } : state;
    case "sessionEnd":
      return state.status === "active" ? endTurn(state, "interrupted") : { ...state, status: "waiting", awaitingIdle: false };
    case "compaction":
      return state.status === "starting" ? { ...state, status: "waiting" } : state;
  }
}
