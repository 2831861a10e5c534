/**
 * What the panel shows of Claude Code's own sandbox for an agent's shell commands: "sandboxed" on
 * the agent's line and card, a row that ran in it with nobody asked marked so, and a request to
 * leave it asked on the card like any permission prompt, with its reason, and answered there.
 */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { agent, agentLive, details, line, prompt, promptsOf, renderPanel, snapshot, tool } from "./helpers";

const rowOf = (toolId: string) =>
  within(details())
    .getAllByTestId("tool-row")
    .find((r) => r.dataset.toolId === toolId)!;

describe("an agent in Claude Code's sandbox", () => {
  it("says sandboxed on its line and its card; an agent launched without it does not", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1, sandboxed: true }), agent({ index: 2 })]));
    expect(within(line("agent-1")).getByTestId("sandbox-tag")).toHaveTextContent("sandboxed");
    expect(within(line("agent-2")).queryByTestId("sandbox-tag")).toBeNull();
    expect(within(details("agent-1")).getByTestId("sandbox-tag")).toHaveTextContent("sandboxed");
    expect(within(details("agent-2")).queryByTestId("sandbox-tag")).toBeNull();
  });

  it("an agent meant to be sandboxed where the sandbox cannot run says not sandboxed, and what to install", () => {
    const missing = "Claude Code's sandbox for the agents' shell commands needs socat, not installed here. Install socat — `sudo apt install socat`";
    const panel = renderPanel();
    panel.send(snapshot([agent({ sandboxMissing: missing })]));
    const tag = within(line("agent-1")).getByTestId("sandbox-missing");
    expect(tag).toHaveTextContent("not sandboxed");
    expect(tag).toHaveAttribute("title", missing);
    expect(within(details("agent-1")).getByTestId("sandbox-missing")).toHaveAttribute("title", missing);
    expect(screen.queryByTestId("sandbox-tag")).toBeNull();
  });

  it("marks a command that ran in the sandbox unasked, and one that asked to leave it; other rows carry no mark", () => {
    const panel = renderPanel();
    panel.send(
      snapshot([
        agent({
          sandboxed: true,
          status: "active",
          tools: [
            tool({ id: "t1", name: "Bash", label: "Ran: npm test", outcome: "done", sandbox: "unasked" }),
            tool({ id: "t2", name: "Bash", label: "Denied: curl https://x", outcome: "denied", sandbox: "askedToLeave" }),
            tool({ id: "t3", name: "Read", label: "Read app.ts", outcome: "done" }),
          ],
        }),
      ]),
    );
    expect(within(rowOf("t1")).getByTestId("tool-sandbox")).toHaveTextContent("sandboxed · unasked");
    expect(within(rowOf("t2")).getByTestId("tool-sandbox")).toHaveTextContent("asked to leave the sandbox");
    expect(within(rowOf("t3")).queryByTestId("tool-sandbox")).toBeNull();
  });

  it("asks on the card to run a command outside the sandbox, with its reason, and Allow answers that prompt", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(
      snapshot([
        agent({
          sandboxed: true,
          status: "needsYou",
          needsYou: { kind: "permission" },
          tools: [tool({ id: "t1", name: "Bash", label: "Waiting for you: curl https://example.com", outcome: "waiting", sandbox: "askedToLeave" })],
        }),
      ]),
    );
    const reason = "asks to run outside Claude Code's sandbox (no confinement: your files, network and keys): Fetch the release notes";
    panel.send(agentLive("agent-1", { prompts: [prompt({ id: "p1", toolUseId: "t1", subject: "Bash: curl https://example.com", reason })] }));
    const asked = within(promptsOf()!).getByTestId("prompt");
    expect(within(asked).getByTestId("prompt-reason")).toHaveTextContent(reason);
    await user.click(within(asked).getByTestId("prompt-allow"));
    expect(panel.posted.filter((m) => m.type === "answerPrompt")).toEqual([{ type: "answerPrompt", id: "p1", decision: "allow" }]);
    expect(screen.getAllByTestId("sandbox-tag").length).toBeGreaterThan(0);
  });
});
