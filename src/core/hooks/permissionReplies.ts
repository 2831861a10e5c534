/**
 * What a PermissionRequest hook answers (CLI 2.1.330, checked live). Anything else, `{}`
 * included, is "no decision": the terminal's own prompt stays and works as usual.
 */

/** No decision: the terminal's prompt is left alone. */
export const NO_DECISION: object = Object.freeze({});

export function allowReply(updatedPermissions?: readonly unknown[]): object {
  const decision = updatedPermissions && updatedPermissions.length > 0 ? { behavior: "allow", updatedPermissions } : { behavior: "allow" };
  return { hookSpecificOutput: { hookEventName: "PermissionRequest", decision } };
}

/**
 * `interrupt: true` does what "No" in the terminal does: the call is rejected
 * (`toolUseResult: "User rejected tool use"`), the turn stops, and Claude waits for the user.
 * With `interrupt: false` the model gets `message` as the call's error and carries on.
 */
export function denyReply(message: string, interrupt: boolean): object {
  return { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message, interrupt } } };
}
