/** The panel's toolbar (Open Claude Code, New Worktree, Run on Several Agents, Queue Tasks, Sessions) and every card's usage together. */
import { VSCodeButton } from "@vscode/webview-ui-toolkit/react";
import { useMediaQuery } from "../useMediaQuery";
import { post } from "../clients/panelClient";
import { Codicon } from "./Codicon";

/** The toolbar; `total`: every card's session usage together ("3 agents · 1.2M tokens · ~$4.20"). */
export function TopBar({ total, totalTitle }: { total?: string | null; totalTitle?: string }) {
  // A narrow panel shows the buttons by their icons; their names stay in the tooltip and for screen readers.
  const narrow = useMediaQuery("(max-width: 520px)");
  const label = (text: string) => (narrow ? null : text);
  return (
    <header className="top-bar">
      <VSCodeButton
        data-testid="open-claude"
        aria-label="Open Claude Code"
        title="Start Claude Code in a new terminal"
        onClick={() => post({ type: "openClaude" })}
      >
        <Codicon name="add" className="button-icon" />
        {label("Open Claude Code")}
      </VSCodeButton>
      <VSCodeButton
        data-testid="open-claude-worktree"
        appearance="secondary"
        aria-label="New Worktree…"
        title="Start Claude Code isolated in a new git worktree (its own folder and branch), to review and merge its work later"
        onClick={() => post({ type: "openClaudeInWorktree" })}
      >
        <Codicon name="git-branch" className="button-icon" />
        {label("New Worktree…")}
      </VSCodeButton>
      <VSCodeButton
        data-testid="run-on-several"
        appearance="secondary"
        aria-label="Run on Several Agents…"
        title="Give one task to several agents, each in a git worktree of its own; compare their work side by side and keep the best"
        onClick={() => post({ type: "runOnSeveralAgents" })}
      >
        <Codicon name="run-all" className="button-icon" />
        {label("Several Agents…")}
      </VSCodeButton>
      <VSCodeButton
        data-testid="queue-tasks"
        appearance="secondary"
        aria-label="Queue Tasks…"
        title="Queue tasks: each runs in a git worktree of its own, a few agents at once (arcadia.queue.parallel); the next starts when one finishes"
        onClick={() => post({ type: "queueTasks" })}
      >
        <Codicon name="list-ordered" className="button-icon" />
        {label("Queue…")}
      </VSCodeButton>
      <VSCodeButton
        data-testid="open-sessions"
        appearance="secondary"
        aria-label="Sessions"
        title="Every session of this workspace: find one, read it, resume it"
        onClick={() => post({ type: "showSessions" })}
      >
        <Codicon name="history" className="button-icon" />
        {label("Sessions")}
      </VSCodeButton>
      {total && (
        <span
          className="usage-total"
          data-testid="usage-total"
          title={totalTitle ?? "Tokens and estimated cost of the sessions the cards follow, at list API prices"}
        >
          {total}
        </span>
      )}
    </header>
  );
}
