/**
 * The engine against sessions the real CLI recorded (test/fixtures/recorded, re-recorded with
 * `npm run record-fixtures`). Each scenario is cut at the moments the recorder paused, and the
 * state there must be what test/support/expectations.ts says a person should have seen.
 */
import { afterAll, describe, expect, it } from "vitest";
import { deriveToolCalls } from "../../src/core/agent/toolCalls";
import { replaySessions } from "../../src/core/engine/replay";
import type { TranscriptEvent } from "../../src/core/transcript/events";
import { expectations, type Seen } from "../support/expectations";
import { cutAtCheckpoint, removeCuts, loadScenario, recordedScenarioNames, sessionFiles } from "../support/recorded";

afterAll(removeCuts);

async function replayed(files: string[], finishTimers: boolean): Promise<Seen> {
  const events: TranscriptEvent[] = [];
  const { final, calls } = await replaySessions(files, { finishTimers, onStep: (s) => events.push(...s.events) });
  // The replay's own tool list and a fold over its events must agree.
  expect(deriveToolCalls(events)).toEqual(calls);
  return { state: final, calls, events };
}

const cases = Object.entries(expectations).flatMap(([scenario, checkpoints]) => Object.keys(checkpoints).map((checkpoint) => [scenario, checkpoint] as const));

describe("recorded from the real CLI", () => {
  it("every recorded scenario has expectations, and every expectation a recording", () => {
    expect(recordedScenarioNames()).toEqual(Object.keys(expectations).sort());
  });

  it.each(cases)("%s @ %s", async (scenario, checkpoint) => {
    const recorded = loadScenario(scenario);
    const seen = checkpoint === "final" ? await replayed(sessionFiles(recorded), true) : await replayed(cutAtCheckpoint(recorded, checkpoint), false);
    expectations[scenario]?.[checkpoint]?.(seen);
  });
});
