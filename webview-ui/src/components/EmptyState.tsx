/** What the panel shows with no agents yet: what it is for and the button that starts one. */
import { VSCodeButton } from "@vscode/webview-ui-toolkit/react";
import { post } from "../clients/panelClient";
import { Codicon } from "./Codicon";

/** First thing a new user sees: what this panel is for and the one step to take. */
export function EmptyState() {
  return (
    <section className="empty-state" data-testid="empty-state" aria-label="No agents yet">
      <Codicon name="hubot" className="empty-icon" />
      <p>Open Claude Code to start an agent. Each agent gets its own terminal; its card shows what it is doing.</p>
      {/* Its own test id: `open-claude` stays unique (the top bar's button) for tests and e2e. */}
      <VSCodeButton data-testid="empty-open-claude" onClick={() => post({ type: "openClaude" })}>
        Open Claude Code
      </VSCodeButton>
    </section>
  );
}
