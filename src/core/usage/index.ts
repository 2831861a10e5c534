/** src/core/usage: its public face — what the rest of Arcadia may import from it. */
export { endsLimit, limitMessage, type LimitNotice, limitNoticeOf } from "./limitNotice";
export { estimateCost, localDay, tokenCount, type TokenCounts, totalTokens, UsageLedger, type UsageTotals, zeroCounts } from "./usageLedger";
