/**
 * A task typed at a new agent's prompt: typed once it is idle there, and submitted for sure — a
 * `claude` still settling can take the text and its Enter as one paste, so Enter goes again until
 * the agent is seen working (never more than twice more: an extra Enter on an empty input is harmless).
 */
import { describe, expect, it } from "vitest";
import { typeTask, whenReady, whenTaken } from "../../../src/agents/launch/agentReadiness";
import { Emitter } from "../../../src/core/util/emitter";
import type { AgentFacts } from "../../../src/shared/protocol";

function fakeAgent(status: AgentFacts["status"], statusSource: AgentFacts["statusSource"] = "process") {
  const changed = new Emitter<void>();
  let view = { id: "a1", status, statusSource, lastTurn: "none" } as AgentFacts;
  return {
    source: { card: (id: string) => (id === view.id ? view : undefined), onDidChangeCard: changed.event },
    set(next: Partial<AgentFacts>) {
      view = { ...view, ...next };
      changed.fire();
    },
  };
}

const fast = { confirmMs: 30, enters: 2 };

/** Types into the fake agent's terminal; `onType` plays the CLI. */
function typingInto(agent: ReturnType<typeof fakeAgent>, onType: (typed: string[]) => void = () => undefined) {
  const typed: string[] = [];
  const typing = {
    type: async (text: string) => {
      typed.push(text);
      onType(typed);
    },
    whenTaken: (ms: number) => whenTaken(agent.source, "a1", ms),
  };
  return { typed, typing };
}

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
    const { typed, typing } = typingInto(agent, () => setTimeout(() => agent.set({ status: "active" }), 5));
    await expect(typeTask(typing, "Fix the tests", undefined, fast)).resolves.toEqual({ taken: true, enterAgain: 0 });
    expect(typed).toEqual(["Fix the tests"]);
  });

  it("counts a task already finished before anyone looked as taken", async () => {
    const agent = fakeAgent("waiting");
    const { typed, typing } = typingInto(agent, () => agent.set({ lastTurn: "completed" }));
    await expect(typeTask(typing, "Say hi", undefined, fast)).resolves.toEqual({ taken: true, enterAgain: 0 });
    expect(typed).toEqual(["Say hi"]);
  });

  it("presses Enter again when the text stayed in the input box, and stops once the agent works", async () => {
    const agent = fakeAgent("waiting");
    // The second Enter is the one the CLI takes.
    const { typed, typing } = typingInto(agent, (t) => t.length === 2 && setTimeout(() => agent.set({ status: "active" }), 5));
    await expect(typeTask(typing, "Fix the tests", undefined, fast)).resolves.toEqual({ taken: true, enterAgain: 1 });
    expect(typed).toEqual(["Fix the tests", ""]);
  });

  it("gives up after two more Enters and says it was not taken", async () => {
    const agent = fakeAgent("waiting");
    const { typed, typing } = typingInto(agent);
    await expect(typeTask(typing, "Fix the tests", undefined, fast)).resolves.toEqual({ taken: false, enterAgain: 2 });
    expect(typed).toEqual(["Fix the tests", "", ""]);
  });

  it("does not wait on an agent that exited or whose terminal closed", async () => {
    const agent = fakeAgent("waiting");
    agent.set({ status: "exited" });
    await expect(whenTaken(agent.source, "a1", 1_000)).resolves.toBe(false);
    await expect(whenTaken({ card: () => undefined, onDidChangeCard: new Emitter<void>().event }, "a1", 1_000)).resolves.toBe(false);
  });
});
