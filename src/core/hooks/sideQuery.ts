/**
 * Hooks of the CLI's side queries. Claude Code makes forked queries beside the conversation (the
 * away summary after a few idle minutes, and others of its kind): they carry the conversation's
 * tools, and their tool calls fire PreToolUse like any other, but the CLI refuses every one of
 * them ("Away summary cannot use tools") and writes none of it to the transcript, and the status
 * file says idle all along (recorded: test/fixtures/recorded/away-summary). Their hook input carries
 * an `agent_id` (the fork's) but no `agent_type`, which every sub-agent's hooks carry (CLI
 * 2.1.330 documents `agent_type` as present "when the hook fires from within a subagent
 * (alongside agent_id)"). Nothing they announce runs, so nothing of them is shown or tracked.
 */
import type { HookInput } from "../server";

const MAX_ID_LENGTH = 200;

const idField = (value: unknown): boolean => typeof value === "string" && value !== "" && value.length <= MAX_ID_LENGTH;

export function isSideQuery(input: HookInput): boolean {
  return idField(input.agent_id) && !idField(input.agent_type);
}
