/**
 * A notification that asks for something stays until it is answered (agents/cards/untilAnswered.ts):
 * VS Code closes one when the user dismisses it or when an identical one is shown, and then it is
 * gone from the notification centre while its permission prompt or approval is still pending.
 */
import { describe, expect, it } from "vitest";
import { Attention } from "../../../src/agents/cards/attention";
import { distinctMessage, MAX_SHOWS, untilAnswered } from "../../../src/agents/cards/untilAnswered";
import type { AgentFacts } from "../../../src/shared/protocol";

/** A notification centre: each show() is one notification, closed by the test (or answered). */
function centre() {
  const shown: { close(choice?: string): void }[] = [];
  const show = () => new Promise<string | undefined>((resolve) => shown.push({ close: (choice) => resolve(choice) }));
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { shown, show, settle };
}

describe("a notification that asks for something", () => {
  it("closed while its prompt is still pending comes back, and goes with the answer", async () => {
    const c = centre();
    let pending = true;
    const answer = untilAnswered(c.show, () => pending);
    await c.settle();
    c.shown[0]!.close(); // dismissed, or replaced by an identical one
    await c.settle();
    expect(c.shown).toHaveLength(2);
    c.shown[1]!.close("Allow");
    await expect(answer).resolves.toBe("Allow");
    pending = false;
  });

  it("closed after its prompt was answered elsewhere (the panel, the terminal) does not come back", async () => {
    const c = centre();
    let pending = true;
    const answer = untilAnswered(c.show, () => pending);
    await c.settle();
    pending = false;
    c.shown[0]!.close();
    await expect(answer).resolves.toBeUndefined();
    expect(c.shown).toHaveLength(1);
  });

  it("is shown a bounded number of times, whatever closes it", async () => {
    let shows = 0;
    await untilAnswered(
      async () => (shows++, undefined),
      () => true,
    );
    expect(shows).toBe(MAX_SHOWS);
  });

  it("two pending prompts with the same words get told-apart messages, so VS Code does not close one for the other", () => {
    expect(distinctMessage("Agent #1 needs permission: Bash: ls", [])).toBe("Agent #1 needs permission: Bash: ls");
    expect(distinctMessage("Agent #1 needs permission: Bash: ls", ["Agent #1 needs permission: Bash: ls"])).toBe("Agent #1 needs permission: Bash: ls (2)");
    expect(distinctMessage("A", ["A", "A (2)"])).toBe("A (3)");
  });

  it("an approval's 'needs you' notification is still needed until the agent leaves that state", () => {
    const attention = new Attention(() => false);
    const view = (status: AgentFacts["status"], kind?: "approval") => ({ id: "a1", status, needsYou: kind ? { kind } : null }) as AgentFacts;
    expect(attention.needsYou(view("needsYou", "approval"))).toBe("approval");
    expect(attention.stillNeeds("a1", "approval")).toBe(true);
    attention.needsYou(view("active"));
    expect(attention.stillNeeds("a1", "approval")).toBe(false);
  });
});
