/** Under a card's sticky header: the calls in flight (Cancel / Complete) and the commands left running (Stop), never scrolled away. */
import type { CardView } from "../../../src/shared/protocol";
import { LiveCall } from "./LiveCall";
import { StillRunning } from "./StillRunning";

/**
 * What the user may need to act on now, pinned with the header whatever the height of the details
 * and however far its rows are scrolled: with many agents open the details get a strip of a few
 * rows, and the running row was the last, below the fold (issue 33). Each says which call it is.
 */
export function RunningStrip({ agent }: { agent: Pick<CardView, "calls" | "stillRunning"> }) {
  const stillRunning = agent.stillRunning ?? [];
  if (agent.calls.length === 0 && stillRunning.length === 0) return null;
  return (
    <div className="running-strip" data-testid="running-strip" role="group" aria-label="Running now">
      {agent.calls.map((call) => (
        <LiveCall key={call.callId} call={call} standalone />
      ))}
      {stillRunning.map((command) => (
        <StillRunning key={command.id} command={command} standalone />
      ))}
    </div>
  );
}
