/** The compare tab's page: a race's members side by side, one column each, fed by the extension's compareState pushes. */
import { VSCodeButton } from "@vscode/webview-ui-toolkit/react";
import { useEffect, useReducer } from "react";
import type { RaceCompareView } from "../../src/shared/protocol";
import type { ComparePush } from "../../src/shared/protocols/compare";
import { CompareColumn } from "./components/CompareColumn";
import { Codicon } from "./components/Codicon";
import { useExtensionMessages } from "./useExtensionMessages";
import { onPush, post, request } from "./clients/compareClient";
import { saveState } from "./vscodeApi";

interface CompareState {
  race: RaceCompareView | null;
  loaded: boolean;
}

function reduceCompare(state: CompareState, message: ComparePush): CompareState {
  return message.type === "compareState" ? { race: message.race, loaded: true } : state;
}

/**
 * A race's compare tab: one column per agent that ran the task — its status, turns, time, tokens
 * and cost, the files it changed with `+a −b`, whether it merges cleanly into the base, and the
 * check command's result — with Review, Ask…, diffs between agents and Pick; and what all its
 * agents spent against the race's cap, with Cap… (Cap this race at…), or Raise… once they are paused at it.
 */
export function CompareApp({ raceId }: { raceId: string }) {
  const [state, dispatch] = useReducer(reduceCompare, { race: null, loaded: false });
  useExtensionMessages(onPush, dispatch, () => request("compareReady", { raceId }));
  // VS Code hands this state back after a reload: the tab finds its race again.
  useEffect(() => saveState({ raceId }), [raceId]);
  const race = state.race;
  if (!race) return <p className="compare-empty">{state.loaded ? "This race is no longer known to Arcadia." : "Reading the race…"}</p>;
  // Diffs are between worktrees still there.
  const others = race.members.filter((m) => m.phase !== "removed" && m.phase !== "branchKept").map((m) => m.name);
  return (
    <div className="compare" data-testid="compare">
      <header className="compare-head">
        <h1 className="compare-title" data-testid="compare-title">
          Race: {race.task}
        </h1>
        <p className="compare-prompt" title="What each agent was asked">
          {race.prompt}
        </p>
        <p className="compare-meta">
          {race.members.length} agents from <span className="compare-base">{race.base}</span>
          {race.picked ? ` · ${race.picked} picked and merged` : ""}
        </p>
        <div className="compare-checks">
          <VSCodeButton
            data-testid="compare-run-checks"
            appearance="secondary"
            title={race.checkCommand ? `Run "${race.checkCommand}" in every agent's worktree` : "Set arcadia.compare.check (a user setting), e.g. npm test"}
            onClick={() => post({ type: "runChecks", raceId: race.id })}
          >
            <Codicon name="beaker" className="button-icon" />
            Run checks
          </VSCodeButton>
          <span className="compare-check-command" data-testid="compare-check-command">
            {race.checkCommand ? race.checkCommand : "no check command set (arcadia.compare.check)"}
          </span>
        </div>
        <RaceBudget raceId={race.id} budget={race.budget} />
      </header>
      <div className="compare-columns" style={{ gridTemplateColumns: `repeat(${race.members.length}, minmax(220px, 1fr))` }}>
        {race.members.map((member) => (
          <CompareColumn key={member.name} race={race} member={member} others={others.filter((n) => n !== member.name)} />
        ))}
      </div>
    </div>
  );
}

/** The race's budget: its agents' spend against its cap, or their pause at it; Cap… / Raise… ask the extension for the race's cap. */
function RaceBudget({ raceId, budget }: { raceId: string; budget: RaceCompareView["budget"] }) {
  return (
    <div className={`compare-budget${budget.paused ? " paused" : ""}`} data-testid="compare-budget" role={budget.paused ? "status" : undefined}>
      <Codicon name={budget.paused ? "debug-pause" : "credit-card"} />
      <span data-testid="compare-budget-text">{budget.paused ? budget.spent : `Budget of the ${budget.spent}`}</span>
      <VSCodeButton
        data-testid="compare-cap-race"
        appearance="secondary"
        title={budget.paused ? "Raise the race's cap: every agent's next tool call passes" : "Cap this race at… (all its agents together)"}
        onClick={() => post({ type: "capRace", raceId })}
      >
        {budget.paused ? "Raise…" : "Cap…"}
      </VSCodeButton>
    </div>
  );
}
