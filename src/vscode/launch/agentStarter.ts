/**
 * Starting an agent that is handed its task, as a race's members and the queue's tasks are: its
 * terminal and card over the launcher (with a model and arguments), the moments its CLI is ready
 * and took the text (agents/launch/agentReadiness.ts), and the typing, through the terminal's one
 * gate (a paused agent is never typed to). One place, so the race and the queue cannot drift.
 */
import type { AgentManager } from "../../agents/agent/agentManager";
import { type Readiness, type ReadinessSource, whenReady, whenTaken } from "../../agents/launch/agentReadiness";
import type { ClaudeLauncher } from "./claudeLauncher";

export interface AgentStarterDeps {
  launcher: ClaudeLauncher;
  cards: ReadinessSource;
  manager: Pick<AgentManager, "agentInfo">;
}

export interface AgentStarter {
  /** A new agent in `cwd` (on `model`, else the default one): its card's id. */
  launch(cwd: string, model: string | null, extraArgs?: readonly string[]): Promise<string>;
  whenReady(agentId: string): Promise<Readiness>;
  whenTaken(agentId: string, timeoutMs: number): Promise<boolean>;
  type(agentId: string, text: string): Promise<void>;
}

export function agentStarter(deps: AgentStarterDeps): AgentStarter {
  return {
    launch: async (cwd, model, extraArgs = []) => {
      const card = await deps.launcher.launchWith(cwd, [...(model ? ["--model", model] : []), ...extraArgs]);
      if (!card) throw new Error("claude could not be started");
      return card.id;
    },
    whenReady: (agentId) => whenReady(deps.cards, agentId),
    whenTaken: (agentId, timeoutMs) => whenTaken(deps.cards, agentId, timeoutMs),
    type: async (agentId, text) => {
      const terminal = deps.manager.agentInfo(agentId)?.terminal;
      if (!terminal?.type) throw new Error("its terminal cannot be typed into");
      await terminal.type(text);
    },
  };
}
