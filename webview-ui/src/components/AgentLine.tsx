/** One agent's line in the panel's overview (name, status, what it does now) and its prompts under the overview. */
import { VSCodeButton } from "@vscode/webview-ui-toolkit/react";
import { memo, useRef, type SyntheticEvent } from "react";
import type { CardView, RaceTagView } from "../../../src/shared/protocol";
import { cardStatus, limitInsteadOfError, STATUS_TEXT } from "../agentStatus";
import { BudgetPaused, budgetTitle } from "./BudgetLine";
import { formatElapsed } from "../../../src/shared/elapsed";
import { focusAgentHandlers } from "../focusAgent";
import { nowDoing } from "../nowDoing";
import { useBringIntoView } from "../useBringIntoView";
import { useNow } from "../useNow";
import { post } from "../clients/panelClient";
import { Codicon } from "./Codicon";
import { Prompt } from "./Prompt";
import { RaceNotStarted } from "./RaceNotStarted";
import { SandboxTag } from "./SandboxTag";
import { StatusDot } from "./StatusDot";

/** Status words up to this long keep their whole width on a line ("Needs you: permission" is 21). */
const STATUS_WORDS_KEPT = 24;

export interface AgentLineProps {
  agent: CardView;
  /** Its details show below the overview now. */
  shown: boolean;
  onShowDetails: (id: string) => void;
  revealSeq?: number;
}

/**
 * One agent on one line of the overview: name, status, what it does now and for how long (its
 * prompts, with their buttons, are under the overview: AgentPrompts). Clicking the line shows its
 * terminal (its details follow); the chevron shows its details without leaving the terminal you are in.
 */
export const AgentLine = memo(function AgentLine({ agent, shown, onShowDetails, revealSeq = 0 }: AgentLineProps) {
  const status = cardStatus(agent);
  const prompts = agent.prompts;
  const needsAnswer = status === "needsYou" || prompts.length > 0;
  const line = useRef<HTMLLIElement>(null);
  const marked = useBringIntoView(line, needsAnswer, agent, revealSeq);
  const doing = nowDoing(agent);
  const { id, name } = agent;
  const { onClick, onKeyDown } = focusAgentHandlers(id);
  const stop = (e: SyntheticEvent) => e.stopPropagation();
  const words = limitInsteadOfError(status, agent.limit) ?? STATUS_TEXT[status];
  return (
    <li
      ref={line}
      className={["agent-line", `status-${status}`, agent.focused && "focused", shown && "shown", needsAnswer && "needs-answer", marked && "revealed"]
        .filter(Boolean)
        .join(" ")}
      data-testid="agent-line"
      data-agent-id={id}
      data-status={status}
      data-needs-answer={needsAnswer ? "true" : undefined}
      aria-current={agent.focused ? "true" : undefined}
    >
      <div
        className="agent-line-main"
        tabIndex={0}
        role="button"
        aria-label={`${name}: ${words}${doing ? `, ${doing.text}` : ""}`}
        title={`Show ${name}'s terminal${budgetTitle(agent.budget)}`}
        onClick={onClick}
        onKeyDown={onKeyDown}
      >
        <StatusDot status={status} />
        <span className="line-name" data-testid="line-name">
          {name}
        </span>
        {agent.branch && (
          <span className="line-branch" data-testid="line-branch" title={`On branch ${agent.branch}`}>
            <Codicon name="git-branch" />
            {agent.branch}
          </span>
        )}
        <SandboxTag sandboxed={agent.sandboxed} missing={agent.sandboxMissing} />
        {/* "Working" goes without saying beside what it works on (the dot pulses, the label says it). */}
        {!(status === "active" && doing) && (
          // Short words ("Needs you") are never cut; only a long one (a limit and its reset) gives way.
          <span className={`line-status${words.length > STATUS_WORDS_KEPT ? " line-status-long" : ""}`} data-testid="line-status" title={words}>
            {words}
          </span>
        )}
        {doing && <Doing text={doing.text} since={doing.since} />}
        {agent.race && <RaceTag race={agent.race} stop={stop} />}
        <VSCodeButton
          className="line-button"
          appearance="icon"
          data-testid="show-details"
          aria-label={`Show ${name}'s details`}
          aria-pressed={shown}
          title={shown ? "Its details are shown below" : "Show its tools, turns and changes below, staying in this terminal"}
          onClick={(e: SyntheticEvent) => (stop(e), onShowDetails(id))}
          onKeyDown={stop}
        >
          <Codicon name={shown ? "eye" : "chevron-down"} />
        </VSCodeButton>
      </div>
      <BudgetPaused agentId={id} name={name} budget={agent.budget} />
      <RaceNotStarted agentId={id} name={name} race={agent.race} />
    </li>
  );
});

/** "race: fix-title 2/3": the race it runs in; a click opens the race's compare tab. */
function RaceTag({ race, stop }: { race: RaceTagView; stop: (e: SyntheticEvent) => void }) {
  return (
    <button
      type="button"
      className={`line-race${race.picked ? " picked" : ""}`}
      data-testid="line-race"
      title={`Agent ${race.member} of ${race.of} running the race "${race.task}"${race.picked ? ", picked" : ""}: compare their work`}
      onClick={(e) => (stop(e), post({ type: "showRace", raceId: race.raceId }))}
      onKeyDown={stop}
    >
      {/* The task gives way (cut with …); its n/N never does. */}
      <span className="line-race-task">race: {race.task}</span>{" "}
      <span className="line-race-count">
        {race.member}/{race.of}
      </span>
    </button>
  );
}

/** One agent's prompts under the overview, each whole with its buttons, under the agent's name; answering one shows its details (`onAnswered`). */
export function AgentPrompts({ agent, onAnswered }: { agent: CardView; onAnswered?: (id: string) => void }) {
  return (
    <li className="agent-prompts" data-testid="agent-prompts" data-agent-id={agent.id} aria-label={`${agent.name} asks`}>
      <span className="agent-prompts-name">{agent.name}</span>
      <div className="agent-prompts-list">
        {agent.prompts.map((prompt) => (
          <Prompt key={prompt.id} prompt={prompt} onAnswered={onAnswered && (() => onAnswered(agent.id))} />
        ))}
      </div>
    </li>
  );
}

/** What it does now, cut with … to its line (the whole text in the tooltip), and its own clock. */
function Doing({ text, since }: { text: string; since: number | undefined }) {
  const now = useNow(since !== undefined);
  return (
    <>
      <span className="line-doing" data-testid="line-doing" title={text}>
        {text}
      </span>
      {since !== undefined && (
        <span className="line-elapsed" data-testid="line-elapsed">
          {formatElapsed(now - since)}
        </span>
      )}
    </>
  );
}
