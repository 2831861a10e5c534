// Smoke test of the rig itself: the real CLI, offline in a loopback-only namespace, answers a
// scripted prompt and writes a transcript with the assistant's text.
import { describe, expect, it } from "vitest";
import { runScenario, scenarioByName } from "../rig/scenarios.js";
import { isAssistantText, readRecords } from "../rig/transcripts.js";
import { realCliAvailable } from "../support/realCli";

const available = realCliAvailable("rig smoke test");

describe("claude rig", () => {
  it.skipIf(!available)("runs text-only against the real CLI and gets a transcript", async () => {
    let seen = false;
    const run = await runScenario(scenarioByName("text-only"), {
      keepRig: true,
      checkpoint: async () => {
        seen = true;
      },
    });
    try {
      expect(seen).toBe(true);
      const records = readRecords(run.rig.transcriptPath(run.sessionId));
      expect(records.some(isAssistantText("You are doing great."))).toBe(true);
    } finally {
      await run.dispose();
    }
  });
});
