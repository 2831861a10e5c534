/**
 * The shapes tool results take, so every tool answers alike: `status` first, a message a person
 * (and the agent) can act on, error results flagged `isError`.
 */
import { jsonResult, type ToolResult } from "../mcp";

export function ok(body: Record<string, unknown>): ToolResult {
  return jsonResult({ status: "ok", ...body });
}

/** Something the agent can fix (a wrong path, a diff that does not apply…): says how. */
export function toolError(message: string, extra: Record<string, unknown> = {}): ToolResult {
  return jsonResult({ status: "error", message, ...extra }, true);
}

/** The user said no (Deny, Reject): the agent should not retry the same thing. */
export function denied(message: string, extra: Record<string, unknown> = {}): ToolResult {
  return jsonResult({ status: "denied", message, ...extra }, true);
}

/** The call was force-finished while it waited: the tracker has answered already; this is for form. */
export function cancelled(): ToolResult {
  return jsonResult({ status: "cancelled", message: "The call was cancelled." }, true);
}
