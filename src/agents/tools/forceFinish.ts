/**
 * Cancel / Complete of a tool call in flight, from the card's buttons or the palette. The call
 * may have ended between the click and now (its result arrived): then there is nothing to do,
 * and the log says so rather than the user seeing an error.
 */
import type { ToolCallTracker } from "../../core/mcp";
import type { Log } from "../ports";

export type FinishAction = "cancel" | "complete";

export function forceFinish(
  tracker: Pick<ToolCallTracker, "cancelCall" | "completeCall">,
  log: Pick<Log, "info">,
  action: FinishAction,
  callId: string,
): boolean {
  const done = action === "cancel" ? tracker.cancelCall(callId) : tracker.completeCall(callId);
  if (!done) log.info(`tool call ${callId} had already finished; nothing to ${action}`);
  return done;
}
