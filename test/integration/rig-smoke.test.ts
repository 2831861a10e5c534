// Smoke test of the rig itself: the real CLI, offline in a loopback-only namespace, answers a
// scripted prompt and writes a transcript with the assistant's text.
import { describe, expect, it } from "vitest";
import { namespaceSupport } from "../rig/claude-rig.js";
import { runScenario, scenarioByName } from "../rig/scenarios.js";
import { isAssistantText, readRecords } from "../rig/transcripts.js";

const support = namespaceSupport();
if (!support.ok) console.warn(`rig-smoke skipped: ${support.reason}`);

describe("claude rig", () => {
  it.skipIf(!support.ok)("runs text-only against the real CLI and gets a transcript", async () => {
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
