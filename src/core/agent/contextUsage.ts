/**
 * How full an agent's context window is, from the newest reply's usage: everything the model saw
 * (input + cache read + cache creation) plus what it wrote (output), against the model's window.
 */
import type { TokenUsage } from "../transcript";

export interface ContextUsage {
  usedTokens: number;
  windowTokens: number;
}

const STANDARD_WINDOW = 200_000;
const EXTENDED_WINDOW = 1_000_000;

/**
 * The window of a model. Claude models have 200k tokens; the 1M-token variants are chosen with a
 * `[1m]` suffix the transcript does not record, so a context already past 200k must be one of them.
 */
export function contextWindowOf(model: string | undefined, usedTokens: number): number {
  if (model && /\[1m\]/i.test(model)) return EXTENDED_WINDOW;
  return usedTokens > STANDARD_WINDOW ? EXTENDED_WINDOW : STANDARD_WINDOW;
}

export function contextUsage(usage: TokenUsage | null): ContextUsage | null {
  if (!usage) return null;
  const usedTokens = usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens + usage.outputTokens;
  if (!Number.isFinite(usedTokens) || usedTokens <= 0) return null;
  return { usedTokens, windowTokens: contextWindowOf(usage.model, usedTokens) };
}
