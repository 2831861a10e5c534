import { VSCodeButton } from "@vscode/webview-ui-toolkit/react";
import { memo, useCallback, useId, useRef, type KeyboardEvent, type SyntheticEvent } from "react";
import type { AgentView } from "../../../src/shared/protocol";
import { STATUS_TEXT, cardStatus, retryText } from "../agentStatus";
import { post } from "../vscodeApi";
import { AgentName } from "./AgentName";
import { Codicon } from "./Codicon";
import { StatusDot } from "./StatusDot";
import { ToolList } from "./ToolList";

/**
 * One agent. Memoized on the agent object: the store keeps unchanged agents' objects, so a message
 * about one agent re-renders that card only.
 */
export const AgentCard = memo(function AgentCard({ agent }: { agent: AgentView }) {
  const status = cardStatus(agent);
  const card = useRef<HTMLLIElement>(null);
  const statusId = useId();
  const { id } = agent;

  const focusAgent = () => post({ type: "focusAgent", id });

  const onKeyDown = (e: KeyboardEvent) => {
    // Only the card itself: Enter on a button inside it is that button's business.
    if (e.target !== e.currentTarget) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      focusAgent();
    }
  };

  // After a rename, keyboard focus comes back to the card instead of falling to the page.
  const onEditEnd = useCallback(() => card.current?.focus(), []);

  return (
    <li
      ref={card}
      className={`agent-card status-${status}${agent.focused ? " selected" : ""}`}
      data-testid="agent-card"
      data-agent-id={id}
      data-status={status}
      tabIndex={0}
      aria-label={agent.name}
      aria-describedby={statusId}
      aria-current={agent.focused ? "true" : undefined}
      title="Show this agent's terminal"
      onClick={focusAgent}
      onKeyDown={onKeyDown}
    >
      <div className="agent-head">
        <div className="agent-title">
          <AgentName id={id} name={agent.name} onEditEnd={onEditEnd} />
        </div>
        <VSCodeButton
          className="card-button"
          appearance="icon"
          data-testid="close-agent"
          aria-label={`Close ${agent.name}`}
          title="Close this agent's terminal"
          onClick={(e: SyntheticEvent) => {
            e.stopPropagation();
            post({ type: "closeAgent", id });
          }}
          onKeyDown={(e: SyntheticEvent) => e.stopPropagation()}
        >
          <Codicon name="close" />
        </VSCodeButton>
      </div>
      <div className="agent-status-line" id={statusId}>
        <StatusDot status={status} />
        <span className="agent-status" data-testid="agent-status" aria-live="polite">
          {STATUS_TEXT[status]}
        </span>
      </div>
      {agent.retry && (
        <div className="agent-retry" data-testid="agent-retry" aria-live="polite">
          <Codicon name="warning" className="retry-icon" />
          <span>{retryText(agent.retry)}</span>
        </div>
      )}
      <ToolList tools={agent.tools} />
    </li>
  );
});
