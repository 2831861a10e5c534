/**
 * Starting an agent that is handed its task, as a race's members and the queue's tasks are: its
 * terminal and card over the launcher (with a model and arguments), the moments its CLI is ready
 * and took the text (agents/launch/agentReadiness.ts), and the typing, through the terminal's one
 * gate (a paused agent is never typed to), and whether it took a prompt or is back at all (after a
 * reload: a terminal opened moments before one may never be revived). One
 * place, so the race and the queue cannot drift.
 */
import type { AgentManager } from "../../agents/agent/agentManager";
import { type Readiness, type ReadinessSource, whenReady, whenTaken } from "../../agents/launch/agentReadiness";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { projectDirFor } from "../../core/transcript";
import type { WorkspaceBindingStore } from "../agent/bindingStore";
import type { ClaudeLauncher } from "./claudeLauncher";

export interface AgentStarterDeps {
  launcher: ClaudeLauncher;
  cards: ReadinessSource;
  manager: Pick<AgentManager, "agentInfo" | "whenShellBound" | "whenBack">;
  /** The agents saved in this window: one still reconnecting after a reload is known by its binding. */
  bindings: Pick<WorkspaceBindingStore, "load">;
}

export interface AgentStarter {
  /** A new agent in `cwd` (on `model`, else the default one): its card's id. */
  launch(cwd: string, model: string | null, extraArgs?: readonly string[]): Promise<string>;
  whenReady(agentId: string): Promise<Readiness>;
  whenTaken(agentId: string, timeoutMs: number): Promise<boolean>;
  type(agentId: string, text: string): Promise<void>;
  /** Whether its session took a prompt (its transcript exists); undefined when the agent is not known. */
  tookPrompt(agentId: string): boolean | undefined;
  /** After a reload: whether a saved agent is bound again, false once its terminal did not come back in the grace. */
  whenBack(agentId: string): Promise<boolean>;
}

export function agentStarter(deps: AgentStarterDeps): AgentStarter {
  return {
    launch: async (cwd, model, extraArgs = []) => {
      const card = await deps.launcher.launchWith(cwd, [...(model ? ["--model", model] : []), ...extraArgs]);
      if (!card) throw new Error("claude could not be started");
      // Its member is saved once its binding is: after a reload (even one within seconds of the
      // fan-out) a saved member's agent is one the window was told of, or none (raceResume.ts).
      await deps.manager.whenShellBound(card.id);
      return card.id;
    },
    whenReady: (agentId) => whenReady(deps.cards, agentId),
    whenBack: (agentId) => deps.manager.whenBack(agentId),
    whenTaken: (agentId, timeoutMs) => whenTaken(deps.cards, agentId, timeoutMs),
    type: async (agentId, text) => {
      const terminal = deps.manager.agentInfo(agentId)?.terminal;
      if (!terminal?.type) throw new Error("its terminal cannot be typed into");
      await terminal.type(text);
    },
    // The CLI writes its session's transcript at the first prompt it takes. An agent still
    // reconnecting after a reload (not bound yet) is known by what was saved of it.
    tookPrompt: (agentId) => {
      const info = deps.manager.agentInfo(agentId);
      const saved = info ? undefined : deps.bindings.load().find((b) => b.agentId === agentId);
      const session = info ?? (saved && { projectDir: projectDirFor(saved.cwd), sessionId: saved.sessionId });
      return session ? existsSync(join(session.projectDir, `${session.sessionId}.jsonl`)) : undefined;
    },
  };
}
