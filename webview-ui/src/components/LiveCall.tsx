/** An MCP call to Arcadia in flight: its ticking time and its Cancel / Complete buttons. */
import type { LiveCallView } from "../../../src/shared/protocol";
import { formatElapsed } from "../../../src/shared/elapsed";
import { useNow } from "../useNow";
import { useSendOnce } from "../useSendOnce";
import { post } from "../clients/panelClient";
import { ActionButton } from "./ActionButton";
import { Codicon } from "./Codicon";

/**
 * An MCP call to Arcadia still in flight, with its own ticking counter and the force-finish
 * buttons. On a tool row it adds only the controls; at the card's foot (`standalone`) it also
 * says which call it is, as there is no row to say it. Key it by `callId`.
 * While it waits for its approval (or its diff's review) nothing runs yet: no counter and no
 * Complete, only Cancel; its clock starts when it is allowed (`runningSince`).
 */
export function LiveCall({ call, standalone = false }: { call: LiveCallView; standalone?: boolean }) {
  const running = call.runningSince !== null;
  const now = useNow(running);
  const { sent, once } = useSendOnce();
  const label = call.display ? `${call.tool}: ${call.display}` : call.tool;
  return (
    <div
      className={`live-call${standalone ? " live-standalone" : ""}`}
      data-testid="live-call"
      data-call-id={call.callId}
      data-tool-use-id={call.toolUseId ?? undefined}
      role="group"
      aria-label={`${label}, in progress`}
    >
      {standalone && (
        <>
          <Codicon name="circle-filled" className="tool-icon live-icon pulse" />
          <span className="live-label" title={label}>
            {label}
          </span>
        </>
      )}
      {running ? (
        <span className="tool-elapsed call-elapsed" data-testid="call-elapsed" title="Time since the call began to run">
          {formatElapsed(now - (call.runningSince ?? call.startedAt))}
        </span>
      ) : (
        <span className="call-waiting" data-testid="call-waiting">
          waiting for your answer
        </span>
      )}
      <span className="live-actions">
        <ActionButton
          testId="call-cancel"
          label={`Cancel ${call.tool}`}
          title="Stop this call; Claude is told it was cancelled"
          disabled={sent}
          onPress={() => once(() => post({ type: "cancelCall", callId: call.callId }))}
        >
          Cancel
        </ActionButton>
        {running && (
          <ActionButton
            testId="call-complete"
            label={`Complete ${call.tool}`}
            title={call.completeHint}
            disabled={sent}
            onPress={() => once(() => post({ type: "completeCall", callId: call.callId }))}
          >
            Complete
          </ActionButton>
        )}
      </span>
    </div>
  );
}
