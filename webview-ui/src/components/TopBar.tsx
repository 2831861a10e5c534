import { VSCodeButton } from "@vscode/webview-ui-toolkit/react";
import { post } from "../vscodeApi";
import { Codicon } from "./Codicon";

export function TopBar() {
  return (
    <header className="top-bar">
      <VSCodeButton data-testid="open-claude" title="Start Claude Code in a new terminal" onClick={() => post({ type: "openClaude" })}>
        <Codicon name="add" className="button-icon" />
        Open Claude Code
      </VSCodeButton>
      <VSCodeButton
        data-testid="open-claude-worktree"
        appearance="secondary"
        title="Start Claude Code isolated in a new git worktree (its own folder and branch), to review and merge its work later"
        onClick={() => post({ type: "openClaudeInWorktree" })}
      >
        <Codicon name="git-branch" className="button-icon" />
        New Worktree…
      </VSCodeButton>
      <VSCodeButton
        data-testid="open-sessions"
        appearance="secondary"
        title="Open the folder where Claude Code keeps this project's sessions"
        onClick={() => post({ type: "openSessionsFolder" })}
      >
        <Codicon name="folder-opened" className="button-icon" />
        Sessions
      </VSCodeButton>
    </header>
  );
}
