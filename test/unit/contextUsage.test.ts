/** The card's context gauge: what the newest reply says is in the window, against the model's window. */
import { describe, expect, it } from "vitest";
import { contextUsage } from "../../src/core/agent/contextUsage";
import { replaySessions } from "../../src/core/engine/replay";
import { loadScenario, sessionFiles } from "../support/recorded";

const usage = (input: number, cacheRead: number, cacheCreation: number, output: number, model?: string) => ({
  inputTokens: input,
  cacheReadInputTokens: cacheRead,
  cacheCreationInputTokens: cacheCreation,
  outputTokens: output,
  model,
});

describe("context usage", () => {
  it("counts input, cache reads, cache writes and output against a 200k window", () => {
    expect(contextUsage(usage(1000, 150_000, 9000, 500, "claude-sonnet-4-5"))).toEqual({ usedTokens: 160_500, windowTokens: 200_000 });
  });

  it("takes a 1M window for a [1m] model, or once the context is past 200k", () => {
    expect(contextUsage(usage(10, 0, 0, 0, "claude-sonnet-4-5[1m]"))?.windowTokens).toBe(1_000_000);
    expect(contextUsage(usage(250_000, 0, 0, 10, "claude-sonnet-4-5"))?.windowTokens).toBe(1_000_000);
  });

  it("comes from the newest reply of a session recorded from the real CLI", async () => {
    const { final } = await replaySessions(sessionFiles(loadScenario("several-tools")).slice(0, 1));
    const shown = contextUsage(final.usage);
    expect(shown?.windowTokens).toBe(200_000);
    expect(shown?.usedTokens).toBe(
      (final.usage?.inputTokens ?? 0) +
        (final.usage?.cacheReadInputTokens ?? 0) +
        (final.usage?.cacheCreationInputTokens ?? 0) +
        (final.usage?.outputTokens ?? 0),
    );
    expect(shown?.usedTokens).toBeGreaterThan(0);
  });

  it("shows nothing before the first reply", () => {
    expect(contextUsage(null)).toBeNull();
  });
});
