/**
 * The collision guard (core/collisions) on the cards: each card's shared files as it says them
 * ("src/App.tsx" from its own folder, the others by name), and the guard kept in step with the
 * agents: an agent that is idle or exited is editing nothing now, a closed one shares nothing.
 */
import type { CollisionGuard } from "../../core/collisions";
import { shownFrom } from "../../core/collisions";
import { combinedDisposable, type Disposable } from "../../core/util";
import type { SharedFileView } from "../../shared/protocol";
import type { CardEvents } from "../cards/cardStore";
import type { SharedFileSource } from "../cards/liveBoard";

export interface AgentNames {
  agentInfo(agentId: string): { name: string; cwd: string } | undefined;
}

export function sharedFileSource(guard: CollisionGuard, agents: AgentNames): SharedFileSource {
  return {
    sharedFiles: (agentId): SharedFileView[] => {
      const cwd = agents.agentInfo(agentId)?.cwd ?? "/";
      return guard
        .sharedFiles(agentId)
        .map((f) => ({ file: shownFrom(cwd, f.path), withAgents: f.otherAgentIds.map((id) => agents.agentInfo(id)?.name ?? "another agent") }));
    },
    askedReason: (agentId, toolUseId) => guard.askedReason(agentId, toolUseId),
    onDidChange: (listener) => guard.onDidChange(listener),
  };
}

export function followCollisionAgents(guard: CollisionGuard, cards: CardEvents): Disposable {
  return combinedDisposable(
    cards.onDidRemoveCard((agentId) => guard.forgetAgent(agentId)),
    cards.onDidChangeCard((card) => (card.status === "waiting" || card.status === "exited") && guard.turnEnded(card.id)),
  );
}

/** The files each agent's session changed (its transcript, sessionCards.ts): known again after a reload. */
export interface SessionEditedFiles {
  files(agentId: string): string[];
  onDidChange(listener: (agentIds: string[]) => void): Disposable;
}

/**
 * The guard learns what each agent's session changed from its transcript too, not only from the
 * hooks: after a window reload the hooks that told it are gone, and a card's collision warning
 * ("Agent #4 also edits src/app.ts") must come back while the file is still uncommitted.
 */
export function rememberSessionEdits(guard: CollisionGuard, edits: SessionEditedFiles, log: (message: string) => void): Disposable {
  return edits.onDidChange((agentIds) => {
    for (const id of agentIds) {
      const files = edits.files(id);
      if (files.length > 0) guard.rememberEdited(id, files).catch((err: unknown) => log(`collisions: ${id}'s session edits: ${String(err)}`));
    }
  });
}
