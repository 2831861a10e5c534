/**
 * A task typed at a new agent's prompt: typed once it is idle there, and submitted for sure — a
 * `claude` still settling can take the text and its Enter as one paste, so Enter goes again until
 * the agent is seen working (never more than twice more: an extra Enter on an empty input is harmless).
 */
import { describe, expect, it } from "vitest";
import { typeTask, whenReady } from "../../../src/agents/agentReadiness";
import { Emitter } from "../../../src/core/util/emitter";
import type { AgentView } from "../../../src/shared/protocol";

function fakeAgent(status: AgentView["status"], statusSource: AgentView["statusSource"] = "process") {
  const changed = new Emitter<void>();
  let view = { id: "a1", status, statusSource } as AgentView;
  return {
    source: { views: () => [view], onDidChange: changed.event },
    set(next: Partial<AgentView>) {
      view = { ...view, ...next };
      changed.fire();
    },
  };
}

const fast = { confirmMs: 30, enters: 2 };

describe("typing a task at a new agent's prompt", () => {
  it("waits until its claude is idle by its own status file, not by the transcript's guess", async () => {
    const agent = fakeAgent("waiting", "transcript");
    const ready = whenReady(agent.source, "a1", 1_000);
    agent.set({ status: "active", statusSource: "process" });
    agent.set({ status: "waiting", statusSource: "process" });
    await expect(ready).resolves.toBe("ready");
    await expect(whenReady(fakeAgent("exited").source, "a1", 1_000)).resolves.toBe("exited");
    await expect(whenReady(fakeAgent("waiting", "transcript").source, "a1", 20)).resolves.toBe("timeout");
  });

  it("types the text once when the agent starts working on it", async () => {
    const agent = fakeAgent("waiting");
    const typed: string[] = [];
    const done = typeTask(agent.source, "a1", async (text) => void typed.push(text), "Fix the tests", fast);
    await new Promise((r) => setTimeout(r, 5));
    agent.set({ status: "active" });
    await expect(done).resolves.toBe(true);
    expect(typed).toEqual(["Fix the tests"]);
  });

  it("presses Enter again when the text stayed in the input box, and stops once the agent works", async () => {
    const agent = fakeAgent("waiting");
    const typed: string[] = [];
    const done = typeTask(
      agent.source,
      "a1",
      async (text) => {
        typed.push(text);
        // The second Enter is the one the CLI takes.
        if (typed.length === 2) setTimeout(() => agent.set({ status: "active" }), 5);
      },
      "Fix the tests",
      fast,
    );
    await expect(done).resolves.toBe(true);
    expect(typed).toEqual(["Fix the tests", ""]);
  });

  it("gives up after two more Enters and says it was not seen submitted", async () => {
    const agent = fakeAgent("waiting");
    const typed: string[] = [];
    await expect(typeTask(agent.source, "a1", async (text) => void typed.push(text), "Fix the tests", fast)).resolves.toBe(false);
    expect(typed).toEqual(["Fix the tests", "", ""]);
  });
});
