import { memo, useMemo } from "react";
import type { ToolView } from "../../../src/shared/protocol";
import { formatElapsed } from "../elapsed";
import { buildToolTree, type ToolNode } from "../toolTree";
import { useMinimumVisibility } from "../useMinimumVisibility";
import { useNow } from "../useNow";

type Outcome = ToolView["outcome"];

const ICON: Record<Outcome, string> = {
  running: "circle-filled",
  done: "check",
  error: "error",
  interrupted: "debug-stop",
  orphaned: "circle-slash",
};

// Read by screen readers in place of the icon: the outcome is never told by colour alone.
const OUTCOME_TEXT: Record<Outcome, string> = {
  running: "Running",
  done: "Done",
  error: "Failed",
  interrupted: "Interrupted",
  orphaned: "Ended without a result",
};

/** The current turn's tools, sub-agent tools nested under their `Subtask:` row. */
export function ToolList({ tools }: { tools: readonly ToolView[] }) {
  const shown = useMinimumVisibility(tools);
  const tree = useMemo(() => buildToolTree(shown), [shown]);
  if (tree.length === 0) return null;
  return (
    <ul className="tool-list" aria-label="Tools">
      {tree.map((node) => (
        <ToolItem key={node.tool.id} node={node} />
      ))}
    </ul>
  );
}

function ToolItem({ node }: { node: ToolNode }) {
  const { tool, children } = node;
  return (
    <li className="tool-item">
      <ToolRow tool={tool} />
      {children.length > 0 && (
        <ul className="tool-list tool-children" aria-label={`Tools of ${tool.label}`}>
          {children.map((child) => (
            <ToolItem key={child.tool.id} node={child} />
          ))}
        </ul>
      )}
    </li>
  );
}

const ToolRow = memo(function ToolRow({ tool }: { tool: ToolView }) {
  const outcome = tool.outcome;
  return (
    <div className={`tool-row tool-${outcome}`} data-testid="tool-row" data-tool-id={tool.id} data-outcome={outcome} title={tool.label}>
      <span
        className={`codicon codicon-${ICON[outcome] ?? "circle-outline"} tool-icon${outcome === "running" ? " pulse" : ""}`}
        role="img"
        aria-label={OUTCOME_TEXT[outcome] ?? outcome}
      />
      {/* A text node: labels come from transcripts and are never parsed as HTML. */}
      <span className="tool-label">{tool.label}</span>
      {tool.background && <span className="tool-badge">background</span>}
      <ToolElapsed tool={tool} />
    </div>
  );
});

function ToolElapsed({ tool }: { tool: ToolView }) {
  const running = tool.outcome === "running";
  const now = useNow(running && tool.startedAt !== undefined);
  if (tool.startedAt === undefined) return null;
  if (running) {
    return (
      <span className="tool-elapsed" data-testid="tool-elapsed">
        {formatElapsed(now - tool.startedAt)}
      </span>
    );
  }
  if (tool.endedAt === undefined) return null;
  // How long a finished tool took: fixed, no timer.
  return (
    <span className="tool-elapsed" data-testid="tool-elapsed">
      {formatElapsed(tool.endedAt - tool.startedAt)}
    </span>
  );
}
