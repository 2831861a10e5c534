/**
 * After an unasked sandboxed command: the repositories it made (core/sandbox leftBehind.ts) go to
 * the user, one prompt each on the agent's card, in plain words, answered Remove or Keep (Keep,
 * which loses nothing, is the card's default). Remove deletes the `.git` (or the file); Keep leaves
 * it. The agent is told what was found and what the user chose. Nothing of Arcadia's runs git
 * there meanwhile: the call waits for the answers.
 */
import { rm } from "node:fs/promises";
import type { ApprovalWording, CallContext } from "../mcp";
import type { LeftBehind } from "../sandbox";
import type { ToolPorts } from "./ports";

export interface LeftBehindOutcome {
  said: string;
  removed: boolean;
}

/** Remove answers allow, Keep answers deny (and is what a cancelled call amounts to: nothing is deleted unasked). */
export const LEFT_BEHIND_WORDING: ApprovalWording = { title: "Left behind by its command:", allow: "Remove", deny: "Keep", harmless: "deny" };

export async function reviewLeftBehind(ports: ToolPorts, context: CallContext, found: readonly LeftBehind[]): Promise<LeftBehindOutcome[]> {
  const out: LeftBehindOutcome[] = [];
  for (const item of found) {
    const reason = `the agent's command ${item.said}. Remove deletes it; Keep leaves it as it is`;
    const { id, promise } = ports.approvals.enqueue("path", item.path, {
      agentId: context.agentId,
      callId: context.callId,
      reason,
      wording: LEFT_BEHIND_WORDING,
    });
    context.linkApproval(id);
    const decision = await promise;
    context.linkApproval(undefined);
    const removed =
      decision === "allow" &&
      (await rm(item.path, { recursive: true, force: true }).then(
        () => true,
        () => false,
      ));
    out.push({ said: item.said, removed });
  }
  return out;
}
