/**
 * The one status truth, shared by the card, the status bar and notifications.
 * `active`: working. `waiting`: its turn is over (idle; `lastTurn` says how it ended).
 * `needsYou`: something waits on the user (`needsYou` says what). `compacting`: `/compact` or
 * auto-compaction runs. `exited`: the `claude` process behind the card is gone.
 */
export type AgentStatusView = "starting" | "active" | "waiting" | "needsYou" | "compacting" | "exited";
export type TurnOutcomeView = "none" | "completed" | "interrupted" | "error";
