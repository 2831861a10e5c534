/** One agent's details below the overview: header, worktree and review lines, tool rows and earlier turns. */
import { VSCodeButton } from "@vscode/webview-ui-toolkit/react";
import { memo, useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type SyntheticEvent } from "react";
import type { CardView } from "../../../src/shared/protocol";
import { cardStatus, limitInsteadOfError, retryText, statusText } from "../agentStatus";
import { focusAgentHandlers } from "../focusAgent";
import { useSendOnce } from "../useSendOnce";
import { post } from "../clients/panelClient";
import { ActionButton } from "./ActionButton";
import { AgentName } from "./AgentName";
import { Codicon } from "./Codicon";
import { ContextGauge } from "./ContextGauge";
import { ReviewComments } from "./ReviewComments";
import { RunningStrip } from "./RunningStrip";
import { SessionEdits } from "./SessionEdits";
import { SharedFiles } from "./SharedFiles";
import { WorktreeLine } from "./WorktreeLine";
import { StatusDot } from "./StatusDot";
import { ToolList } from "./ToolList";
import { TurnHistory } from "./TurnHistory";
import { usageLine, usageTitle } from "../usageText";
import { SandboxTag } from "./SandboxTag";
import { BudgetLine } from "./BudgetLine";

/**
 * One agent's details, below the overview: its header (name, status, usage, context) stays in
 * place while its rows scroll. Its prompts are on its overview line, with their buttons, so they
 * are never scrolled away; its rows say what waits. Memoized on the card object. Its ✕ does
 * nothing until `closeIgnoredUntil` (ms since the epoch): its details just took a closed agent's place.
 */
export const AgentCard = memo(function AgentCard({ agent, closeIgnoredUntil = 0 }: { agent: CardView; closeIgnoredUntil?: number }) {
  const status = cardStatus(agent);
  // A card that waits on the user stands out, whether Claude's own prompt or one of Arcadia's.
  const needsAnswer = status === "needsYou" || agent.prompts.length > 0;
  const card = useRef<HTMLLIElement>(null);
  const [confirmingClose, setConfirmingClose] = useState(false);
  // Closing a card that is busy, or waiting on the user, ends its terminal and its work: ask first.
  const closeNeedsConfirm = status === "active" || status === "compacting" || status === "needsYou";
  const statusId = useId();
  const limitedNow = limitInsteadOfError(status, agent.limit);
  const { id } = agent;

  const { onClick: focusAgent, onKeyDown } = focusAgentHandlers(id);

  // After a rename, keyboard focus comes back to the card instead of falling to the page.
  const onEditEnd = useCallback(() => card.current?.focus(), []);

  return (
    <li
      ref={card}
      className={`agent-card status-${status}${agent.focused ? " selected" : ""}${needsAnswer ? " needs-answer" : ""}`}
      data-testid="agent-card"
      data-agent-id={id}
      data-status={status}
      data-needs-answer={needsAnswer ? "true" : undefined}
      tabIndex={0}
      aria-label={agent.name}
      aria-describedby={statusId}
      aria-current={agent.focused ? "true" : undefined}
      title="Show this agent's terminal"
      onClick={focusAgent}
      onKeyDown={onKeyDown}
    >
      {/* One row while the width holds it: name, status, usage, context, close; then what runs now (Cancel /
          Complete / Stop). It stays, opaque, while the rows scroll under it. */}
      <div className="agent-card-header">
        <div className="agent-title">
          <AgentName id={id} name={agent.name} onEditEnd={onEditEnd} />
        </div>
        <div className="agent-status-line">
          <StatusDot status={status} />
          {/* The card's description is the status alone, not the buttons and gauge beside it. */}
          <span className="agent-status" id={statusId} data-testid="agent-status" aria-live="polite">
            {limitedNow ?? statusText(agent)}
          </span>
          <SandboxTag sandboxed={agent.sandboxed} missing={agent.sandboxMissing} />
          {agent.reconnecting && (
            <span className="agent-reconnecting" data-testid="agent-reconnecting" title="Shown from before the window reloaded; finding its terminal again">
              Reconnecting…
            </span>
          )}
          {status === "exited" && <RestartButton id={id} name={agent.name} />}
          {agent.usage && (
            <span className="agent-usage" data-testid="agent-usage" title={usageTitle(agent.usage)}>
              {usageLine(agent.usage)}
            </span>
          )}
          <ContextGauge context={agent.context} />
        </div>
        <VSCodeButton
          className="card-button"
          appearance="icon"
          data-testid="close-agent"
          aria-label={`Close ${agent.name}`}
          title="Close this agent's terminal"
          onClick={(e: SyntheticEvent) => {
            e.stopPropagation();
            // A click meant for the ✕ of the agent just closed (its details were here) closes nothing else.
            if (Date.now() < closeIgnoredUntil) return;
            if (closeNeedsConfirm) setConfirmingClose(true);
            else post({ type: "closeAgent", id });
          }}
          onKeyDown={(e: SyntheticEvent) => e.stopPropagation()}
        >
          <Codicon name="close" />
        </VSCodeButton>
        <RunningStrip agent={agent} />
        {/* In the header, under the ✕ that asked: the details' floor holds the header, so the question
            is on screen however short the panel (below it, it fell under the fold at 300 px). */}
        {confirmingClose && (
          <CloseConfirm name={agent.name} onClose={() => post({ type: "closeAgent", id })} onKeep={() => (setConfirmingClose(false), card.current?.focus())} />
        )}
      </div>
      {agent.limit && !limitedNow && (
        <div className="agent-limit" data-testid="agent-limit" role="status">
          <Codicon name="watch" className="retry-icon" />
          <span>{agent.limit}</span>
        </div>
      )}
      <BudgetLine agentId={id} name={agent.name} budget={agent.budget} />
      {status === "exited" && agent.exitMessage && (
        <div className="agent-exit-message" data-testid="agent-exit-message" title={agent.exitMessage}>
          {agent.exitMessage}
        </div>
      )}
      {agent.retry && (
        <div className="agent-retry" data-testid="agent-retry" aria-live="polite">
          <Codicon name="warning" className="retry-icon" />
          <span>{retryText(agent.retry)}</span>
        </div>
      )}
      <WorktreeLine agentId={id} name={agent.name} worktree={agent.worktree} />
      {/* A worktree agent's changes are on its worktree line, against its base. */}
      {!agent.worktree && <SessionEdits agentId={id} name={agent.name} edits={agent.sessionEdits} />}
      <ReviewComments agentId={id} name={agent.name} review={agent.reviewComments} />
      <SharedFiles files={agent.sharedFiles} />
      {/* Prompts are answered under the overview; Cancel / Complete / Stop are pinned under the header. */}
      <ToolList tools={agent.tools} live={agent} promptsAbove controlsAbove />
      <TurnHistory turns={agent.history} />
    </li>
  );
});

/** "Close Agent #2 while it works?" Close / Keep, on the card; focus goes to Keep, Escape keeps it. */
function CloseConfirm({ name, onClose, onKeep }: { name: string; onClose: () => void; onKeep: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.querySelector<HTMLElement>('[data-testid="close-confirm-keep"]')?.focus(), []);
  const stop = (e: SyntheticEvent) => e.stopPropagation();
  return (
    <div
      ref={box}
      className="close-confirm"
      data-testid="close-confirm"
      role="alertdialog"
      aria-label={`Close ${name} while it works?`}
      onClick={stop}
      onKeyDown={(e: KeyboardEvent) => {
        e.stopPropagation();
        if (e.key === "Escape") onKeep();
      }}
    >
      <span className="close-confirm-question">Close {name} while it works? Its terminal closes with it.</span>
      {/* Keep looks like the default as it is one (focused): the destructive choice is never the blue button. */}
      <VSCodeButton data-testid="close-confirm-close" appearance="secondary" onClick={(e: SyntheticEvent) => (stop(e), onClose())}>
        Close
      </VSCodeButton>
      <VSCodeButton data-testid="close-confirm-keep" onClick={(e: SyntheticEvent) => (stop(e), onKeep())}>
        Keep
      </VSCodeButton>
    </div>
  );
}

/** A restart that worked leaves "exited" well before this; one that did not can be tried again. */
const RESTART_RETRY_MS = 10_000;

/** Shown only while `claude` is gone, so it starts fresh (enabled) each time the agent exits. */
function RestartButton({ id, name }: { id: string; name: string }) {
  const { sent, once, reset } = useSendOnce();
  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(reset, RESTART_RETRY_MS);
    return () => clearTimeout(timer);
  }, [sent, reset]);
  return (
    <ActionButton
      testId="restart-agent"
      label={`Restart claude in ${name}`}
      title="Start claude again in this terminal, resuming its session"
      disabled={sent}
      onPress={() => once(() => post({ type: "restartAgent", id }))}
    >
      <Codicon name="debug-restart" className="button-icon" />
      Restart
    </ActionButton>
  );
}
