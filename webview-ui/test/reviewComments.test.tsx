import { within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { agent, agentLive, details, renderPanel, snapshot } from "./helpers";

const review = (parts: Partial<{ total: number; drafts: number; queued: number; awaiting: number; addressed: number; unaddressed: number }>) => ({
  total: 0,
  drafts: 0,
  queued: 0,
  awaiting: 0,
  addressed: 0,
  unaddressed: 0,
  ...parts,
});

describe("a card's review comments", () => {
  it("drafts: says how many, and Send posts a send for that agent only, without focusing its terminal", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2 })]));
    panel.send(agentLive("agent-2", { reviewComments: review({ total: 2, drafts: 2 }) }));
    expect(within(details("agent-1")).queryByTestId("review-comments")).toBeNull();
    const line = within(details("agent-2")).getByTestId("review-comments");
    expect(within(line).getByTestId("review-comments-text").textContent).toBe("2 review comments — 2 not sent");
    const send = within(line).getByTestId("review-send");
    expect(send.textContent).toBe("Send 2 comments");
    expect(send.getAttribute("aria-label")).toBe("Send 2 review comments to Agent #2");
    await user.click(send);
    expect(panel.posted.filter((m) => m.type === "reviewAction" || m.type === "focusAgent")).toEqual([{ type: "reviewAction", id: "agent-2", action: "send" }]);
  });

  it("queued while the agent works: 'will send when idle', and no second Send", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1, status: "active" })]));
    panel.send(agentLive("agent-1", { reviewComments: review({ total: 2, queued: 2 }) }));
    expect(within(details("agent-1")).getByTestId("review-comments-text").textContent).toBe("2 review comments — 2 will send when idle");
    expect(within(details("agent-1")).queryByTestId("review-send")).toBeNull();
  });

  it("after the agent's answer: '3 review comments — 2 addressed'", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 })]));
    panel.send(agentLive("agent-1", { reviewComments: review({ total: 3, awaiting: 3 }) }));
    expect(within(details("agent-1")).getByTestId("review-comments-text").textContent).toBe("3 review comments — 3 sent, waiting for the answer");
    panel.send(agentLive("agent-1", { reviewComments: review({ total: 3, addressed: 2, unaddressed: 1 }) }));
    expect(within(details("agent-1")).getByTestId("review-comments-text").textContent).toBe("3 review comments — 2 addressed");
  });

  it("a live view holding only review comments is kept, and goes when they do", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 })], null, [{ agentId: "agent-1", reviewComments: review({ total: 1, drafts: 1 }) }]));
    expect(within(details("agent-1")).getByTestId("review-comments-text").textContent).toBe("1 review comment — 1 not sent");
    panel.send(agentLive("agent-1", { reviewComments: null }));
    expect(within(details("agent-1")).queryByTestId("review-comments")).toBeNull();
  });
});
