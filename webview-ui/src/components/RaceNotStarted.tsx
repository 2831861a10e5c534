/** Under a race member's line whose agent did not start: why, in words, and Retry (a new agent in its worktree, its task typed once). */
import type { RaceTagView } from "../../../src/shared/protocol";
import { post } from "../clients/panelClient";
import { useSendOnce } from "../useSendOnce";
import { ActionButton } from "./ActionButton";
import { Codicon } from "./Codicon";

export function RaceNotStarted({ agentId, name, race }: { agentId: string; name: string; race: RaceTagView | null | undefined }) {
  // Keyed by the card: a retry makes a new card, which starts with its own button.
  const { sent, once } = useSendOnce();
  if (!race?.notStarted) return null;
  return (
    <div className="race-not-started" data-testid="race-not-started" role="alert">
      <Codicon name="warning" />
      <span className="race-not-started-text">did not start: {race.notStarted}</span>
      <ActionButton
        testId="race-retry"
        label={`Retry ${name}: start a new agent for race ${race.task} ${race.member}/${race.of}`}
        title="Close this agent and start a new one in the same worktree; its task is typed once it is ready"
        disabled={sent}
        onPress={() => once(() => post({ type: "retryRaceMember", id: agentId }))}
      >
        Retry
      </ActionButton>
    </div>
  );
}
