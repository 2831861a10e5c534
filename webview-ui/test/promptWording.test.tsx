/**
 * A prompt can bring its own words for its two answers: what a sandboxed command left behind is
 * answered Remove or Keep, not Allow / Deny. The card shows exactly those two buttons, the harmless
 * one (Keep) first and emphasized, and each sends its answer (Remove: allow, which removes; Keep:
 * deny, which keeps), once. A prompt without words keeps Allow / Deny.
 */
import { within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { PromptWording } from "../../src/shared/protocol";
import { agent, agentLive, prompt, promptsOf, renderPanel, snapshot, tool } from "./helpers";

/** The prompt's answer buttons' words, in the order the card shows them. */
const buttons = (p: HTMLElement) => [...p.querySelectorAll("vscode-button")].map((b) => b.textContent?.trim());
/** The toolkit button's look (a property: the primary one is the emphasized default). */
const appearance = (button: HTMLElement) => (button as HTMLElement & { appearance?: string }).appearance;
const sent = (posted: { type: string }[]) => posted.filter((m) => m.type !== "webviewReady");
const REMOVE_KEEP: PromptWording = { title: "Left behind by its command:", allow: "Remove", deny: "Keep", harmless: "deny" };
const reason = "the agent's command created sub/.git with core.fsmonitor, a program git would run. Remove deletes it; Keep leaves it as it is";

function leftBehindPrompt() {
  const panel = renderPanel();
  panel.send(snapshot([agent({ status: "active", tools: [tool({ id: "t1", name: "mcp__arcadia__execute_command" })] })]));
  panel.send(
    agentLive("agent-1", {
      prompts: [prompt({ id: "a7", kind: "path", subject: "/ws/sub/.git", reason, toolUseId: "t1", wording: REMOVE_KEEP })],
    }),
  );
  return { panel, p: within(promptsOf()!).getByTestId("prompt") };
}

describe("a prompt with its own answer words", () => {
  it("shows Keep (first, the primary button) and Remove, with the question and the reason in plain words", () => {
    const { p } = leftBehindPrompt();
    expect(buttons(p)).toEqual(["Keep", "Remove"]);
    expect(appearance(within(p).getByTestId("prompt-deny"))).toBe("primary");
    expect(appearance(within(p).getByTestId("prompt-allow"))).toBe("secondary");
    expect(within(p).getByTestId("prompt-allow")).toHaveAttribute("aria-label", "Remove /ws/sub/.git");
    expect(within(p).getByTestId("prompt-deny")).toHaveAttribute("aria-label", "Keep /ws/sub/.git");
    expect(p).toHaveAttribute("aria-label", "Left behind by its command: /ws/sub/.git");
    expect(p).toHaveTextContent("Left behind by its command:/ws/sub/.git");
    expect(within(p).getByTestId("prompt-reason")).toHaveTextContent(`Asked because ${reason}.`);
    expect(p).not.toHaveTextContent(/Allow|Deny/);
  });

  it("Remove answers allow (Arcadia then removes it), once", async () => {
    const user = userEvent.setup();
    const { panel, p } = leftBehindPrompt();
    await user.dblClick(within(p).getByTestId("prompt-allow"));
    await user.click(within(p).getByTestId("prompt-deny"));
    expect(sent(panel.posted)).toEqual([{ type: "answerPrompt", id: "a7", decision: "allow" }]);
  });

  it("Keep answers deny (it stays), once", async () => {
    const user = userEvent.setup();
    const { panel, p } = leftBehindPrompt();
    await user.click(within(p).getByTestId("prompt-deny"));
    await user.click(within(p).getByTestId("prompt-allow"));
    expect(sent(panel.posted)).toEqual([{ type: "answerPrompt", id: "a7", decision: "deny" }]);
  });

  it("a prompt without words of its own keeps Allow (first, primary) and Deny", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ status: "active", tools: [tool({ id: "t1" })] })]));
    panel.send(agentLive("agent-1", { prompts: [prompt({ id: "a1", kind: "command", subject: "npm publish", toolUseId: "t1" })] }));
    const p = within(promptsOf()!).getByTestId("prompt");
    expect(buttons(p)).toEqual(["Allow", "Deny"]);
    expect(appearance(within(p).getByTestId("prompt-allow"))).toBe("primary");
  });
});
