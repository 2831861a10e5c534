/**
 * How a tool call ended, read from its `tool_result` block and the record's `toolUseResult`.
 * Escape during a tool, a rejected edit and a permission prompt answered "No" all write an error
 * result with the same wording; they are the user's choice, not a failure. A "No" at the prompt
 * is told apart by the record itself: CLI 2.1.330 marks it `toolDenialBeforeRun: true` (Escape
 * while the tool runs does not), so it is `denied` live, after a reload and in replay alike; the
 * rest is `interrupted` (older CLIs: the card still tells a "No" by its prompt, core/agent/hookRows.ts).
 * A denial by a permission rule or hook, and Arcadia's own tools' denied results, say so: `denied`.
 */
import type { ToolOutcome } from "./events";
import { contentText, isObject } from "./recordShapes";

const REJECTED_PREFIX = "The user doesn't want to proceed with this tool use";
const REJECTED_RESULT = "User rejected tool use";
const INTERRUPTED_MARKER = "[Request interrupted by user for tool use]";
/** Denials by permission rules or hooks ("Permission to use Bash has been denied…"). */
const DENIED = /^Permission to use .* (?:has been|was) denied/;
/** Arcadia's own tools answer a denied approval with `{"status":"denied",…}` (core/tools/results.ts). */
const ARCADIA_DENIED = /^\[?\{"status":"denied"/;

export function toolResultOutcome(
  block: Record<string, unknown>,
  toolUseResult: unknown,
  deniedBeforeRun = false,
): Exclude<ToolOutcome, "orphaned" | "unknown"> {
  const text = contentText(block.content).trimStart();
  if (toolUseResult === REJECTED_RESULT) return deniedBeforeRun ? "denied" : "interrupted";
  if (DENIED.test(text) || (block.is_error === true && ARCADIA_DENIED.test(text))) return "denied";
  if (text.startsWith(REJECTED_PREFIX) || text.includes(INTERRUPTED_MARKER)) return "interrupted";
  return block.is_error === true ? "error" : "done";
}

/** The `Agent` call returned at once; its sub-agent keeps running in the background. */
export function isAsyncLaunch(toolUseResult: unknown): boolean {
  return isObject(toolUseResult) && toolUseResult.status === "async_launched";
}
