/** The card's warning about uncommitted files this agent and others both change. */
import type { SharedFileView } from "../../../src/shared/protocol";
import { Codicon } from "./Codicon";

/** "Agent #1 also edits src/App.tsx": files this agent and others change, not committed yet. */
export function SharedFiles({ files }: { files: readonly SharedFileView[] | undefined }) {
  if (!files || files.length === 0) return null;
  return (
    <ul className="agent-shared-files" data-testid="shared-files" aria-label="Files other agents also edit">
      {files.map((f) => (
        <li
          key={f.file}
          className="agent-shared-file"
          data-testid="shared-file"
          title={`Not committed yet. ${f.withAgents.join(" and ")} changed or is changing this file too: one may overwrite the other's edit.`}
        >
          <Codicon name="warning" className="retry-icon" />
          <span>
            {f.withAgents.join(" and ")} also {f.withAgents.length > 1 ? "edit" : "edits"} <code>{f.file}</code>
          </span>
        </li>
      ))}
    </ul>
  );
}
