/** The details follow the user's attention: the agent whose call they allowed, or whose prompt they answered, stays shown. */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { agent, liveCall, prompt, promptsOf, renderPanel, snapshot } from "./helpers";

const shownId = () => screen.getByTestId("agent-card").dataset.agentId;

describe("the details follow the user's attention", () => {
  it("after Allow on an agent's command, its commands terminal in front keeps that agent's details (and its Complete) shown", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    const ask = prompt({ id: "approval-1", kind: "command", subject: "npm test" });
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2 }), agent({ index: 3, focused: true, prompts: [ask] })]));
    expect(shownId()).toBe("agent-3");
    await user.click(within(promptsOf("agent-3")!).getByTestId("prompt-allow"));
    expect(panel.posted.at(-1)).toEqual({ type: "answerPrompt", id: "approval-1", decision: "allow" });
    // The call runs; its commands terminal (no agent's) comes to the front: no card is focused any more.
    const running = liveCall({ callId: "c1", startedAt: 1_000, runningSince: 2_000 });
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2 }), agent({ index: 3, calls: [running] })]));
    expect(shownId()).toBe("agent-3");
    expect(within(screen.getByTestId("agent-card")).getByTestId("call-complete")).toBeInTheDocument();
  });

  it("answering another agent's prompt (its terminal not in front) shows that agent's details", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    const ask = prompt({ id: "perm-2", subject: "Bash: make" });
    panel.send(snapshot([agent({ index: 1, focused: true }), agent({ index: 2, prompts: [ask] })]));
    expect(shownId()).toBe("agent-1");
    await user.click(within(promptsOf("agent-2")!).getByTestId("prompt-deny"));
    expect(shownId()).toBe("agent-2");
    // An update that no longer carries the prompt keeps the choice.
    panel.send(snapshot([agent({ index: 1, focused: true }), agent({ index: 2, status: "active" })]));
    expect(shownId()).toBe("agent-2");
  });

  it("a terminal that is no agent's coming to the front keeps the details of the agent whose terminal was in front", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2, focused: true })]));
    expect(shownId()).toBe("agent-2");
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2 })]));
    expect(shownId()).toBe("agent-2");
    // Another agent's terminal in front takes the details along.
    panel.send(snapshot([agent({ index: 1, focused: true }), agent({ index: 2 })]));
    expect(shownId()).toBe("agent-1");
  });

  it("after a reload, the details the user chose stay when the window revives the terminals (one of them in front)", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    // After a window reload: both cards reconnecting, no terminal bound yet.
    panel.send(snapshot([agent({ index: 1, reconnecting: true }), agent({ index: 2, reconnecting: true })]));
    await user.click(within(screen.getAllByTestId("agent-line")[0]!).getByTestId("show-details"));
    expect(shownId()).toBe("agent-1");
    // The window revives the terminals, Agent #2's in front as it was before the reload: not the user's doing.
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2, focused: true })]));
    expect(shownId()).toBe("agent-1");
    // The user then bringing a terminal to the front takes the details along, as ever.
    panel.send(snapshot([agent({ index: 1, focused: true }), agent({ index: 2 })]));
    expect(shownId()).toBe("agent-1");
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2, focused: true })]));
    expect(shownId()).toBe("agent-2");
  });
});
