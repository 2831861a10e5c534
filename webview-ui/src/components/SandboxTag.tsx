/**
 * What Claude Code's own sandbox did for an agent (arcadia.agentSandbox): the "sandboxed" tag on
 * its line and card, and a tool row's mark: "sandboxed · unasked" (it ran in the sandbox with
 * nobody asked) or "asked to leave the sandbox" (`dangerouslyDisableSandbox`, asked on the card).
 */
import type { ToolView } from "../../../src/shared/protocol";

const AGENT_TITLE =
  "Its shell commands run in Claude Code's sandbox: no network, writes only in its folder, your home folder's secrets unreadable. " +
  "Inside it they run without asking you; a command that asks to leave it asks you here first.";

/** "sandboxed", or "not sandboxed" with why and what to install when it was meant to be (`missing`). */
export function SandboxTag({ sandboxed, missing }: { sandboxed: boolean | undefined; missing?: string }) {
  if (!sandboxed && missing) {
    return (
      <span className="sandbox-tag sandbox-missing" data-testid="sandbox-missing" title={missing}>
        not sandboxed
      </span>
    );
  }
  if (!sandboxed) return null;
  return (
    <span className="sandbox-tag" data-testid="sandbox-tag" title={AGENT_TITLE}>
      sandboxed
    </span>
  );
}

const MARK = {
  unasked: { text: "sandboxed · unasked", title: "Ran in Claude Code's sandbox without asking you (it could not reach outside it)" },
  askedToLeave: { text: "asked to leave the sandbox", title: "Asked to run outside Claude Code's sandbox, with no confinement: that is asked of you" },
} as const;

export function SandboxMark({ mark }: { mark: ToolView["sandbox"] }) {
  if (!mark) return null;
  const { text, title } = MARK[mark];
  return (
    <span className={`sandbox-mark sandbox-mark-${mark}`} data-testid="tool-sandbox" data-sandbox={mark} title={title}>
      {text}
    </span>
  );
}
