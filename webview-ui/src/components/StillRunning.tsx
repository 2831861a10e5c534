/** A command its call left running after Complete: its time and its Stop button. */
import type { StillRunningView } from "../../../src/shared/protocol";
import { formatElapsed } from "../../../src/shared/elapsed";
import { useNow } from "../useNow";
import { useSendOnce } from "../useSendOnce";
import { post } from "../clients/panelClient";
import { ActionButton } from "./ActionButton";
import { Codicon } from "./Codicon";

/**
 * A command its call left running: Complete answered the agent with the output so far, and the
 * command runs on in the agent's commands terminal. Its row says the call is done; this says what
 * still runs, for how long, and offers Stop, until the process exits. On a tool row it adds only
 * that; at the card's foot (`standalone`) it also says which command. Key it by `id`.
 */
export function StillRunning({ command, standalone = false }: { command: StillRunningView; standalone?: boolean }) {
  const now = useNow(true);
  const { sent, once } = useSendOnce();
  return (
    <div
      className={`live-call still-running${standalone ? " live-standalone" : ""}`}
      data-testid="still-running"
      role="group"
      aria-label={`${command.display}: completed early, still running`}
    >
      {standalone && (
        <>
          <Codicon name="circle-filled" className="tool-icon live-icon pulse" />
          <span className="live-label" title={command.display}>
            {command.display}
          </span>
        </>
      )}
      <span className="still-running-text">Completed early — still running</span>
      <span className="tool-elapsed" data-testid="still-running-elapsed" title="How long the command has run">
        {formatElapsed(now - command.startedAt)}
      </span>
      <span className="live-actions">
        <ActionButton
          testId="command-stop"
          label={`Stop ${command.display}`}
          title="Stop the command (Ctrl+C in its terminal)"
          disabled={sent}
          onPress={() => once(() => post({ type: "stopCommand", id: command.id }))}
        >
          Stop
        </ActionButton>
      </span>
    </div>
  );
}
