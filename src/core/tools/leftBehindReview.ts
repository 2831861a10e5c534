/**
 * After an unasked sandboxed command: the repositories it made (core/sandbox leftBehind.ts) go to
 * the user, one prompt each on the agent's card, in plain words; Allow removes the `.git`, Deny
 * keeps it. The agent is told what was found and what the user chose. Nothing of Arcadia's runs
 * git there meanwhile: the call waits for the answers.
 */
import { rm } from "node:fs/promises";
import type { CallContext } from "../mcp";
import type { LeftBehind } from "../sandbox";
import type { ToolPorts } from "./ports";

export interface LeftBehindOutcome {
  said: string;
  removed: boolean;
}

export async function reviewLeftBehind(ports: ToolPorts, context: CallContext, found: readonly LeftBehind[]): Promise<LeftBehindOutcome[]> {
  const out: LeftBehindOutcome[] = [];
  for (const item of found) {
    const reason = `the agent's command ${item.said}. Allow removes it; Deny keeps it`;
    const { id, promise } = ports.approvals.enqueue("write", `remove ${item.path}`, { agentId: context.agentId, callId: context.callId, reason });
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
