/**
 * One malformed message that breaks one card's render keeps the rest of the panel working: the
 * other cards stay, with their prompts and buttons, the broken one says so, and the error is
 * logged. A later good message for that agent shows its card again.
 */
import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { CardView } from "../../src/shared/protocol";
import { agent, agentLive, agentPart, prompt, promptsOf, renderPanel, snapshot } from "./helpers";

const lineOf = (id: string) => screen.queryAllByTestId("agent-line").find((c) => c.dataset.agentId === id);

describe("a card that fails to render", () => {
  it("is replaced by a short notice; the other cards keep working, and the error is logged", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2 })]));
    panel.send(agentLive("agent-1", { prompts: [prompt({ id: "p1", subject: "Bash: npm test" })] }));

    // Off-protocol data the panel's light check lets through: its name is not text.
    const broken = { ...agent({ index: 2 }), name: { text: "Broken" } } as unknown as CardView;
    panel.send({ type: "cardChanged", card: broken });

    expect(screen.getByTestId("card-error")).toHaveAttribute("data-agent-id", "agent-2");
    expect(lineOf("agent-2")).toBeUndefined();
    expect(lineOf("agent-1")).toBeDefined();
    within(promptsOf("agent-1")!).getByTestId("prompt-allow").click();
    expect(panel.posted).toContainEqual({ type: "answerPrompt", id: "p1", decision: "allow" });
    expect(logged.mock.calls.some((args) => String(args[0]).includes("agent-2"))).toBe(true);

    panel.send(agentPart(agent({ index: 2, name: "Fixed" })));
    expect(screen.queryByTestId("card-error")).not.toBeInTheDocument();
    expect(within(lineOf("agent-2")!).getByText("Fixed")).toBeInTheDocument();
    logged.mockRestore();
  });
});
