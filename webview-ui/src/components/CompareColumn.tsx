/** One race member's column in the compare tab: what it did, whether it merges, its check, and its actions. */
import type { CompareMemberView, RaceCompareView } from "../../../src/shared/protocol";
import { changesText, checkText, mergeText, phaseText } from "../compareText";
import { compactNumber, costText, duration } from "../usageText";
import { useNow } from "../useNow";
import { post } from "../clients/compareClient";
import { useSendOnce } from "../useSendOnce";

type CompareAction = "review" | "followUp" | "pick" | "focus" | "checkOutput" | "again" | "retry";

const FILE_MARK: Record<string, string> = { added: "A", modified: "M", deleted: "D", renamed: "R" };
/** Files listed per column (the count covers all). */
const FILES_SHOWN = 30;

/** One agent of a race: what it did, whether it merges, how its check went, and what can be done with it. */
export function CompareColumn({ race, member, others }: { race: RaceCompareView; member: CompareMemberView; others: string[] }) {
  const now = useNow(member.check.state === "running");
  const act = (action: CompareAction) => post({ type: "compareAction", raceId: race.id, member: member.name, action });
  const diff = (other: string) => post({ type: "compareDiff", raceId: race.id, left: other, right: member.name });
  const gone = member.phase === "removed" || member.phase === "branchKept";
  const files = member.changes?.files ?? [];
  const s = member.sessions;
  const idle = member.status === "waiting";
  return (
    <section
      className={`compare-column phase-${member.phase}`}
      data-testid="compare-column"
      data-member={member.name}
      data-phase={member.phase}
      aria-label={member.name}
    >
      <header className="compare-column-head">
        <h2 className="compare-member">{member.name}</h2>
        <div className="compare-phase" data-testid="compare-phase">
          {phaseText(member)}
        </div>
        {member.model && <div className="compare-model">--model {member.model}</div>}
      </header>
      {/* Keyed by why: a retry that fails again says so anew, with its button back. */}
      {member.notStarted && <NotStarted key={`${member.agentId}:${member.notStarted}`} member={member} retry={() => act("retry")} />}
      <dl className="compare-figures">
        <dt>Turns</dt>
        <dd data-testid="compare-turns">{s ? s.turns : "…"}</dd>
        <dt>Working</dt>
        <dd>{s ? (s.activeMs ? duration(s.activeMs) : "—") : "…"}</dd>
        <dt>Tokens</dt>
        <dd>{s ? (s.tokens ? compactNumber(s.tokens) : "—") : "…"}</dd>
        <dt>Cost</dt>
        <dd data-testid="compare-cost" title={s?.unpricedModels.length ? `Not priced (unknown model): ${s.unpricedModels.join(", ")}` : "At list API prices"}>
          {s ? (s.costUsd ? costText(s.costUsd) : "—") : "…"}
        </dd>
      </dl>
      <div className="compare-block">
        <div className="compare-changes" data-testid="compare-changes">
          {changesText(member, race.base)}
        </div>
        {files.length > 0 && (
          <ul className="compare-files" data-testid="compare-files">
            {files.slice(0, FILES_SHOWN).map((f) => (
              <li key={f.path} className="compare-file" data-testid="compare-file" title={f.from ? `renamed from ${f.from}` : f.status}>
                <span className={`file-mark mark-${f.status}`}>{FILE_MARK[f.status]}</span>
                <span className="file-path">{f.path}</span>
                <span className="file-lines">{f.binary ? "binary" : `+${f.added} −${f.removed}`}</span>
              </li>
            ))}
            {files.length > FILES_SHOWN && <li className="compare-file more">… and {files.length - FILES_SHOWN} more</li>}
          </ul>
        )}
        <div className={`compare-merge merge-${member.merge?.kind ?? "none"}`} data-testid="compare-merge">
          {mergeText(member, race.base)}
        </div>
      </div>
      <div
        className={`compare-check check-${member.check.state}${"stale" in member.check && member.check.stale ? " check-stale" : ""}`}
        data-testid="compare-check"
        data-state={member.check.state}
      >
        <span className="compare-check-label">Check:</span> {checkText(member.check, now)}
        {member.check.state !== "notRun" && (
          <button type="button" className="link-button" data-testid="compare-check-output" onClick={() => act("checkOutput")}>
            output
          </button>
        )}
      </div>
      {member.problem && <div className="compare-problem">{member.problem}</div>}
      <div className="compare-actions">
        <button type="button" className="link-button" data-testid="compare-review" disabled={gone || files.length === 0} onClick={() => act("review")}>
          Review
        </button>
        <button
          type="button"
          className="link-button"
          data-testid="compare-followup"
          disabled={!idle}
          title={idle ? "Type a follow-up at its prompt" : "Only while it is idle at its prompt"}
          onClick={() => act("followUp")}
        >
          Ask…
        </button>
        <button type="button" className="link-button" data-testid="compare-focus" disabled={!member.agentId} onClick={() => act("focus")}>
          Terminal
        </button>
        <button
          type="button"
          className="link-button compare-pick"
          data-testid="compare-pick"
          disabled={gone || race.picked !== null}
          title={`Merge ${member.name}'s work into ${race.base} (Merge…), then offer the others for removal`}
          onClick={() => act("pick")}
        >
          Pick…
        </button>
        <button
          type="button"
          className="link-button"
          data-testid="compare-again"
          title={`Queue this task again with another --model than ${member.model ?? "the default"}`}
          onClick={() => act("again")}
        >
          Again on…
        </button>
      </div>
      {!gone && others.length > 0 && (
        <div className="compare-diffs">
          Diff with
          {others.map((other) => (
            <button key={other} type="button" className="link-button" data-testid="compare-diff" data-other={other} onClick={() => diff(other)}>
              {other}
            </button>
          ))}
        </div>
      )}
    </section>
  );
}

/** Its agent never became ready: why, and Retry (a new agent in the same worktree, its task typed once), as under its line in the panel. */
function NotStarted({ member, retry }: { member: CompareMemberView; retry: () => void }) {
  const { sent, once } = useSendOnce();
  return (
    <div className="race-not-started" data-testid="compare-not-started" role="alert">
      <span className="race-not-started-text">did not start: {member.notStarted}</span>
      <button
        type="button"
        className="link-button"
        data-testid="compare-retry"
        disabled={sent}
        title="Close its agent and start a new one in the same worktree; its task is typed once it is ready"
        onClick={() => once(retry)}
      >
        Retry
      </button>
    </div>
  );
}
