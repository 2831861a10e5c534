/**
 * The one definition of the Claude Code hook events Arcadia listens to (CLI 2.1.330): their names,
 * each one's timeout, and how it is delivered. The settings file passed to each agent, the
 * `/hooks` route's shape check and every switch over `hook_event_name` derive from it: a switch
 * ends in `otherHookEvent(event)`, typed `never`, so an event added here fails to compile until
 * each switch says what it does with it.
 * - PreToolUse ("answers"): the tool_use id of every call (the PermissionRequest that may follow
 *   has none) and its row on the card at once; answered at once (the collision guard may say
 *   "ask"), short, because the tool waits for it.
 * - PermissionRequest ("waits"): answered when the user decides in the panel. The terminal shows
 *   its own prompt meanwhile, so waiting long costs nothing; when the timeout ends it, the panel's
 *   buttons go (the broker answers "no decision" a little before) and the terminal still works.
 * - PostToolUse / PostToolUseFailure ("tells"): the call ran, so a prompt answered in the terminal
 *   is over, and its row ends on the card.
 * - PermissionDenied ("tells"): a call denied by a rule or the auto-mode classifier.
 * - PreCompact / PostCompact ("tells"): the card says "Compacting…" in between.
 */
export const HOOK_EVENTS = {
  PreToolUse: { timeoutS: 10, delivery: "answers" },
  PermissionRequest: { timeoutS: 3600, delivery: "waits" },
  PostToolUse: { timeoutS: 10, delivery: "tells" },
  PostToolUseFailure: { timeoutS: 10, delivery: "tells" },
  PermissionDenied: { timeoutS: 10, delivery: "tells" },
  PreCompact: { timeoutS: 10, delivery: "tells" },
  PostCompact: { timeoutS: 10, delivery: "tells" },
} as const satisfies Record<string, { timeoutS: number; delivery: "answers" | "waits" | "tells" }>;

export type HookEventName = keyof typeof HOOK_EVENTS;

export const HOOK_EVENT_NAMES = Object.keys(HOOK_EVENTS) as HookEventName[];

export function isHookEventName(name: unknown): name is HookEventName {
  return typeof name === "string" && Object.hasOwn(HOOK_EVENTS, name);
}

/** What every hook input carries; its other fields are the CLI's, unchecked: each reader checks what it reads. */
interface HookInputBase {
  session_id: string;
  [field: string]: unknown;
}

/** One hook input, told apart by its event. */
export type HookInput = { [E in HookEventName]: HookInputBase & { hook_event_name: E } }[HookEventName];

/** The `default` of a switch over every hook event: `event` is `never` once each one has its case. */
export function otherHookEvent<T>(event: never, answer: T): T {
  void event;
  return answer;
}
