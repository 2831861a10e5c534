/**
 * What a card shows beyond its calls and prompts, wired to the agents: files it shares with other
 * agents (the collision guard), the files it changed this session (from its transcript) and, for
 * a worktree agent, its branch and changes with the commands that act on them (review, merge,
 * remove).
 */
import { followCollisionAgents, sharedFileSource } from "../agents/collisionCards";
import type { AgentManager } from "../agents/agentManager";
import type { CardExtras, RaceSource } from "../agents/liveBoard";
import type { Log } from "../agents/ports";
import { followSessions, SessionCards } from "../agents/sessionCards";
import { followWorktreeAgents, WorktreeCards } from "../agents/worktreeCards";
import { transcriptPath } from "../core/transcript/projectDir";
import { changeStats } from "../core/git/changeStats";
import { worktreeOf } from "../core/git/worktreeCreate";
import type { CollisionGuard } from "../core/collisions/collisionGuard";
import type { HookToolFeed } from "../core/hooks/hookToolFeed";
import type { Disposable } from "../core/util/emitter";
import { followLimits } from "./limitStatus";
import { type Deps as WorktreeDeps, offerRemovalOfLeftWorktree, registerWorktreeCommands } from "./worktreeCommands";

export function createCardExtras(deps: { manager: AgentManager; collisions: CollisionGuard; hookTools: HookToolFeed; races: RaceSource; log: Log }): {
  sources: CardExtras;
  disposables: Disposable[];
  /** What the worktree commands act with (a race's Review, Pick and removals reuse them). */
  worktreeDeps: WorktreeDeps;
} {
  const { manager, collisions, hookTools, log } = deps;
  const worktrees = new WorktreeCards({ worktreeOf, changeStats, log: (m) => log.warn(m) });
  const edits = new SessionCards((m) => log.warn(m));
  const commandDeps = { manager, cards: worktrees, edits, log };
  const onDidHook = (listener: (agentId: string) => void) => hookTools.onDidChange(listener);
  const sessionOf = (id: string) => {
    const agent = manager.agentInfo(id);
    // The agent's own project folder (found once at launch): no realpath per card update.
    return agent ? { transcriptPath: transcriptPath(agent.projectDir, agent.sessionId), cwd: agent.cwd } : undefined;
  };
  const disposables: Disposable[] = [
    worktrees,
    edits,
    followLimits(edits, (id) => manager.agentInfo(id)?.name, "arcadia.showPanel"),
    followSessions(edits, { onDidChange: manager.onDidChange, sessionOf, onDidHook }),
    followCollisionAgents(collisions, manager.onDidChange),
    followWorktreeAgents(worktrees, {
      onDidChange: manager.onDidChange,
      agentCwd: (id) => manager.agentInfo(id)?.cwd,
      onDidHook,
      onWorktreeLeft: (info, name) => offerRemovalOfLeftWorktree(commandDeps, info, name),
    }),
    ...registerWorktreeCommands(commandDeps),
  ];
  return { sources: { shared: sharedFileSource(collisions, manager), worktrees, edits, races: deps.races }, disposables, worktreeDeps: commandDeps };
}
