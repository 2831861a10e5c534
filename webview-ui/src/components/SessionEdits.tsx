/** The card's line listing the files a shared-checkout agent edited this session, with Review. */
import type { SyntheticEvent } from "react";
import type { SessionEditsView } from "../../../src/shared/protocol";
import { post } from "../clients/panelClient";
import { Codicon } from "./Codicon";

/** "Edited 2 files this session: src/a.ts, README.md · Review", for an agent in the shared checkout. */
export function SessionEdits({ agentId, name, edits }: { agentId: string; name: string; edits: SessionEditsView | null | undefined }) {
  if (!edits) return null;
  const listed = edits.files.slice(0, 3).join(", ") + (edits.total > 3 ? ", …" : "");
  const review = (e: SyntheticEvent) => {
    e.stopPropagation();
    post({ type: "worktreeAction", id: agentId, action: "review" });
  };
  return (
    <div className="agent-session-edits" data-testid="session-edits" title={edits.files.join("\n")}>
      <Codicon name="edit" className="worktree-icon" />
      <span data-testid="session-edits-text">
        Edited {edits.total} {edits.total === 1 ? "file" : "files"} this session: {listed}
      </span>
      <button type="button" className="link-button" data-testid="session-edits-review" aria-label={`Review the files ${name} changed`} onClick={review}>
        Review
      </button>
    </div>
  );
}
