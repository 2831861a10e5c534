/**
 * The engine following the real Claude Code CLI live, in a loopback-only network namespace
 * against the scripted model server: at each checkpoint of each scenario the agent's state must
 * be what a person watching the card should see (test/support/expectations.ts).
 */
import { describe, it } from "vitest";
import { runScenario, scenarios } from "../rig/scenarios.js";
import { expectations } from "../support/expectations";
import { LiveAgent } from "../support/liveAgent";
import { realCliAvailable } from "../support/realCli";

const available = realCliAvailable("engine following the real CLI");

describe.skipIf(!available)("engine following the real CLI", () => {
  it.each(scenarios.map((s) => [s.name, s] as const))("%s", async (name, scenario) => {
    const expected = expectations[name];
    if (!expected) throw new Error(`no expectations for scenario ${name}`);
    let agent: LiveAgent | undefined;
    let started: Promise<void> | undefined;
    const checked: string[] = [];
    const run = await runScenario(scenario, {
      keepRig: true,
      onRig: (rig, sessionId) => {
        agent = new LiveAgent(rig.projectDir());
        started = agent.start(rig.transcriptPath(sessionId));
      },
      checkpoint: async (checkpoint) => {
        await started;
        const expectation = expected[checkpoint];
        if (!expectation) throw new Error(`no expectation for ${name} @ ${checkpoint}`);
        await agent?.expectEventually(expectation);
        checked.push(checkpoint);
      },
    });
    try {
      const live = agent as LiveAgent;
      // The session is over: every pending engine timer runs (print mode's idle fallback).
      live.clock.runAll();
      if (expected.final) {
        await live.expectEventually(expected.final);
        checked.push("final");
      }
      const missing = Object.keys(expected).filter((c) => !checked.includes(c));
      if (missing.length) throw new Error(`checkpoints never reached: ${missing.join(", ")}`);
    } finally {
      await agent?.stop();
      await run.dispose();
    }
  });
});
