/**
 * Whose Review a file is in: a new comment on it goes to that agent and no other. The Review
 * opened last that lists the file decides (two agents in the shared checkout can both have changed
 * it); after a window reload, before any Review is opened again, the worktree agent whose
 * worktree holds the file, else the agent that changed it this session.
 */
import { sep } from "node:path";

export interface OwnerSources {
  /** Agents' ids, in launch order. */
  agentIds(): string[];
  /** A worktree agent's worktree folder. */
  worktreeOf(agentId: string): string | undefined;
  /** Files (absolute) an agent in the shared checkout changed this session. */
  editedFiles(agentId: string): string[];
}

export class ReviewOwners {
  /** File → agent of the Review opened last that lists it. */
  private readonly reviewed = new Map<string, string>();

  constructor(private readonly sources: OwnerSources) {}

  /** A Review of `agentId` opened on these files (absolute paths). */
  opened(agentId: string, files: readonly string[]): void {
    for (const file of files) this.reviewed.set(file, agentId);
  }

  ownerOf(file: string): string | undefined {
    const ids = this.sources.agentIds();
    const reviewed = this.reviewed.get(file);
    if (reviewed && ids.includes(reviewed)) return reviewed;
    const inWorktree = ids.find((id) => {
      const folder = this.sources.worktreeOf(id);
      return folder !== undefined && file.startsWith(folder + sep);
    });
    return inWorktree ?? ids.find((id) => this.sources.editedFiles(id).includes(file));
  }

  forget(agentId: string): void {
    for (const [file, owner] of this.reviewed) if (owner === agentId) this.reviewed.delete(file);
  }
}
