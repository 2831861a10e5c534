/** A card's tool rows, nested under their sub-agent, each with its outcome icon, words, waits and live controls. */
import { memo, useMemo } from "react";
import type { CardView, ToolView } from "../../../src/shared/protocol";
import { formatElapsed } from "../../../src/shared/elapsed";
import { placeLive, type RowLive } from "../liveRows";
import { buildToolTree, type ToolNode } from "../toolTree";
import { useMinimumVisibility } from "../useMinimumVisibility";
import { useNow } from "../useNow";
import { LiveCall } from "./LiveCall";
import { Prompt } from "./Prompt";
import { StillRunning } from "./StillRunning";
import { SandboxMark } from "./SandboxTag";

type Outcome = ToolView["outcome"];

const ICON: Record<Outcome, string> = {
  running: "circle-filled",
  waiting: "bell",
  done: "check",
  error: "error",
  interrupted: "debug-stop",
  denied: "circle-slash",
  orphaned: "circle-outline",
  unknown: "question",
};

// Read by screen readers in place of the icon: the outcome is never told by colour alone.
const OUTCOME_TEXT: Record<Outcome, string> = {
  running: "Running",
  waiting: "Waiting for you",
  done: "Done",
  error: "Failed",
  interrupted: "Interrupted",
  denied: "Denied",
  orphaned: "Ended without a result",
  unknown: "Ended — output unknown (its record was too large to read)",
};

/** Outcomes the label itself states (core/labels/toolLabels.ts rowLabel). */
const SAID_IN_WORDS: ReadonlySet<Outcome> = new Set(["waiting", "denied", "interrupted", "orphaned", "unknown"]);

/**
 * The current turn's tools, sub-agent tools nested under their `Subtask:` row; live calls and
 * prompts on the row of their tool_use, and those without a row at the foot. `promptsAbove`: the
 * prompts are answered under the overview; `controlsAbove`: the calls' Cancel / Complete and the
 * commands' Stop are pinned under the card's header (RunningStrip), so the rows only carry the clock.
 */
export function ToolList({
  tools,
  live,
  promptsAbove = false,
  controlsAbove = false,
}: {
  tools: readonly ToolView[];
  live?: Pick<CardView, "calls" | "prompts" | "stillRunning"> | undefined;
  promptsAbove?: boolean;
  controlsAbove?: boolean;
}) {
  const shown = useMinimumVisibility(tools);
  const tree = useMemo(() => buildToolTree(shown), [shown]);
  const placed = useMemo(() => placeLive(shown, live), [shown, live]);
  const foot = controlsAbove ? { ...placed.foot, calls: [], stillRunning: [] } : placed.foot;
  return (
    <>
      {tree.length > 0 && (
        <ul className="tool-list" aria-label="Tools">
          {tree.map((node) => (
            <ToolItem key={node.tool.id} node={node} byTool={placed.byTool} promptsAbove={promptsAbove} controlsAbove={controlsAbove} />
          ))}
        </ul>
      )}
      {(foot.calls.length > 0 || foot.prompts.length > 0 || foot.stillRunning.length > 0) && (
        <div className="card-foot" data-testid="card-foot">
          {foot.prompts.map((prompt) => (promptsAbove ? <AsksAbove key={prompt.id} /> : <Prompt key={prompt.id} prompt={prompt} />))}
          {foot.calls.map((call) => (
            <LiveCall key={call.callId} call={call} standalone />
          ))}
          {foot.stillRunning.map((command) => (
            <StillRunning key={command.id} command={command} standalone />
          ))}
        </div>
      )}
    </>
  );
}

function ToolItem({
  node,
  byTool,
  promptsAbove,
  controlsAbove,
}: {
  node: ToolNode;
  byTool: ReadonlyMap<string, RowLive>;
  promptsAbove: boolean;
  controlsAbove: boolean;
}) {
  const { tool, children } = node;
  return (
    <li className="tool-item">
      <ToolRow tool={tool} live={byTool.get(tool.id)} promptsAbove={promptsAbove} controlsAbove={controlsAbove} />
      {children.length > 0 && (
        <ul className="tool-list tool-children" aria-label={`Tools of ${tool.label}`}>
          {children.map((child) => (
            <ToolItem key={child.tool.id} node={child} byTool={byTool} promptsAbove={promptsAbove} controlsAbove={controlsAbove} />
          ))}
        </ul>
      )}
    </li>
  );
}

const ToolRow = memo(function ToolRow({
  tool,
  live,
  promptsAbove,
  controlsAbove,
}: {
  tool: ToolView;
  live: RowLive | undefined;
  promptsAbove: boolean;
  controlsAbove: boolean;
}) {
  const outcome = tool.outcome;
  // A live call brings its own counter (on the row, or pinned under the header): one clock per call.
  const hasCall = (live?.calls.length ?? 0) > 0;
  const inRow = live && (live.prompts.length > 0 || (!controlsAbove && (hasCall || live.stillRunning.length > 0)));
  return (
    <div
      className={`tool-row tool-${outcome}${live ? " has-live" : ""}`}
      data-testid="tool-row"
      data-tool-id={tool.id}
      data-outcome={outcome}
      title={tool.label}
    >
      {/* Where the words already say what happened ("Denied: touch x"), the icon is not read out again. */}
      <span
        className={`codicon codicon-${ICON[outcome] ?? "circle-outline"} tool-icon${outcome === "running" ? " pulse" : ""}`}
        role="img"
        aria-label={OUTCOME_TEXT[outcome] ?? outcome}
        aria-hidden={SAID_IN_WORDS.has(outcome) || undefined}
        title={outcome === "unknown" ? OUTCOME_TEXT.unknown : undefined}
      />
      {/* A text node: labels come from transcripts and are never parsed as HTML. The extension
          makes the whole label, verdict included ("Denied: touch x"), for live and restored cards
          alike: nothing is added here, so no verdict can be said twice. */}
      <span className="tool-label">{tool.label}</span>
      {tool.waitedMs !== undefined && (
        <span className="tool-waited" data-testid="tool-waited" title="How long it waited for your answer before it ran">
          waited {formatElapsed(tool.waitedMs)}
        </span>
      )}
      <SandboxMark mark={tool.sandbox} />
      {tool.background && <span className="tool-badge">background</span>}
      {!hasCall && <ToolElapsed tool={tool} />}
      {inRow && (
        // Its own line inside the row, so the buttons never squeeze the label.
        <div className="tool-live">
          {live.prompts.map((prompt) => (promptsAbove ? <AsksAbove key={prompt.id} /> : <Prompt key={prompt.id} prompt={prompt} />))}
          {!controlsAbove && live.calls.map((call) => <LiveCall key={call.callId} call={call} />)}
          {!controlsAbove && live.stillRunning.map((command) => <StillRunning key={command.id} command={command} />)}
        </div>
      )}
    </div>
  );
});

/** Its own running time: from when it ran, after any wait for the user (shown apart). */
function ToolElapsed({ tool }: { tool: ToolView }) {
  const running = tool.outcome === "running";
  const now = useNow(running && tool.startedAt !== undefined);
  if (tool.startedAt === undefined) return null;
  const ranFrom = tool.startedAt + (tool.waitedMs ?? 0);
  if (running) {
    return (
      <span className="tool-elapsed" data-testid="tool-elapsed">
        {formatElapsed(now - ranFrom)}
      </span>
    );
  }
  if (tool.endedAt === undefined) return null;
  // How long a finished tool took: fixed, no timer.
  return (
    <span className="tool-elapsed" data-testid="tool-elapsed">
      {formatElapsed(tool.endedAt - ranFrom)}
    </span>
  );
}

/** A prompt answered under the overview (with its buttons, never scrolled away): its row says so. */
function AsksAbove() {
  return (
    <span className="tool-asks" data-testid="tool-asks" title="Its prompt, with Allow and Deny, is under the agents above">
      <span className="codicon codicon-arrow-up" aria-hidden="true" /> answer it above
    </span>
  );
}
