/**
 * Complete on a write (write_file, apply_diff): Accept, whatever the user has not clicked yet. The
 * pending diff is linked to the call (../diffReview.ts), so the handler then writes for real and
 * answers with the real result.
 */
import type { CompleteBehaviour } from "../mcp";
import { jsonResult } from "../mcp";

export const completeByAcceptingTheDiff: CompleteBehaviour = {
  hint: "Accept the proposed change and write it",
  run(call, resources) {
    if (call.diffId) {
      // Accepting lets the handler write the file and answer with its real result.
      resources.acceptDiff(call.diffId);
      return { kind: "handlerAnswers" };
    }
    // No diff yet (a path approval may still be waiting): nothing will be written.
    return {
      kind: "answer",
      result: jsonResult({ status: "force-completed", message: "Force-completed from the Arcadia panel before any change was proposed; nothing was written." }),
    };
  },
};
