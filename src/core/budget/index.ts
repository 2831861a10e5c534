/** src/core/budget: its public face — what the rest of Arcadia may import from it. */
export { budgetDenial, type BudgetDenial, type BudgetGateOptions, denyAnswer, subagentReason, withBudgetGate } from "./budgetGate";
export { type BudgetSettings, DEFAULT_MAX_SUBAGENTS, dollars, MAX_CAP_USD, readBudgetSettings, type RawBudgetSettings } from "./budgetSettings";
export { BURN_WINDOW_MS, burnRate, capEtaText, keptSamples, rateText, type SpendSample, timeToCap } from "./burnRate";
export { ALARM_CALLS_PER_MINUTE, ALARM_MINUTES, recentCalls, runningAway } from "./callRate";
export { isSubagentCall, LiveSubagents } from "./liveSubagents";
export { type GroupInput, type GroupLabel, pausedLine, pauseReason, type PauseVerdict, pauseVerdict, type Spend } from "./pauseRule";
