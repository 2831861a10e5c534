/** The card's worktree line for an agent in a worktree of its own: branch, changes, Review / Merge / Remove. */
import type { SyntheticEvent } from "react";
import type { WorktreeView } from "../../../src/shared/protocol";
import { post } from "../clients/panelClient";
import { Codicon } from "./Codicon";

/** "⎇ worktree-fix · isolated · 3 files · +40 −12" with Review / Merge… / Remove…, for an agent in a worktree of its own. */
export function WorktreeLine({ agentId, name, worktree }: { agentId: string; name: string; worktree: WorktreeView | null | undefined }) {
  if (!worktree) return null;
  const { changes } = worktree;
  const act = (action: "review" | "merge" | "remove") => (e: SyntheticEvent) => {
    // The card's own click focuses the terminal: these buttons do only their own thing.
    e.stopPropagation();
    post({ type: "worktreeAction", id: agentId, action });
  };
  const counted =
    changes === null
      ? "counting changes…"
      : changes.files === 0
        ? "no changes"
        : `${changes.files} ${changes.files === 1 ? "file" : "files"} · +${changes.added} −${changes.removed}`;
  return (
    <div
      className="agent-worktree"
      data-testid="agent-worktree"
      title={`Isolated in its own git worktree on branch ${worktree.branch}, made from ${worktree.base}`}
    >
      <Codicon name="git-branch" className="worktree-icon" />
      <span className="worktree-branch" data-testid="worktree-branch">
        {worktree.branch}
      </span>
      <span className="worktree-isolated">isolated</span>
      <span className="worktree-changes" data-testid="worktree-changes">
        {counted}
      </span>
      <span className="worktree-actions">
        <button
          type="button"
          className="link-button"
          data-testid="worktree-review"
          aria-label={`Review ${name}'s changes`}
          disabled={!changes || changes.files === 0}
          onClick={act("review")}
        >
          Review
        </button>
        <button
          type="button"
          className="link-button"
          data-testid="worktree-merge"
          aria-label={`Merge ${name}'s work into ${worktree.base}`}
          title={`Merge into ${worktree.base}…`}
          onClick={act("merge")}
        >
          Merge…
        </button>
        <button type="button" className="link-button" data-testid="worktree-remove" aria-label={`Remove ${name}'s worktree`} onClick={act("remove")}>
          Remove…
        </button>
      </span>
    </div>
  );
}
