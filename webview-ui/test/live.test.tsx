import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { agent, agentPart, agentLive, details, line, liveCall, prompt, promptsOf, renderPanel, snapshot, tool } from "./helpers";

const card = details;
// Cancel / Complete / Stop: pinned under the card's header, never scrolled away with the rows.
const pinned = () => within(card()).getByTestId("running-strip");
const row = (toolId: string) =>
  within(card())
    .getAllByTestId("tool-row")
    .find((r) => r.dataset.toolId === toolId)!;
// The toolkit button's own property, set by React at once (the attribute is reflected a moment later).
const disabled = (button: HTMLElement) => (button as HTMLElement & { disabled?: boolean }).disabled === true;
const sent = (posted: { type: string }[]) => posted.filter((m) => m.type !== "webviewReady");

describe("a call to Arcadia's MCP server in flight", () => {
  it("shows pinned under the card's header, named, with its own counter ticking every second; its row keeps saying what runs", () => {
    vi.useFakeTimers();
    const start = new Date("2025-01-01T12:00:00Z").getTime();
    vi.setSystemTime(start + 5_000);
    const panel = renderPanel();
    const tools = [tool({ id: "t0", label: "Reading a.ts", outcome: "done" }), tool({ id: "t1", label: "Running: sleep 1000", startedAt: start - 1_000 })];
    panel.send(snapshot([agent({ status: "active", tools })]));
    panel.send(agentLive("agent-1", { calls: [liveCall({ callId: "c1", toolUseId: "t1", startedAt: start })] }));

    const live = within(pinned()).getByTestId("live-call");
    expect(live).toHaveAttribute("data-call-id", "c1");
    expect(live).toHaveAttribute("data-tool-use-id", "t1");
    expect(live).toHaveTextContent("execute_command: sleep 1000");
    expect(within(card()).getAllByTestId("live-call")).toHaveLength(1);
    expect(row("t1")).toHaveClass("has-live");
    // One clock for the call: its own, not also the transcript's on its row.
    expect(within(card()).getAllByTestId(/elapsed/)).toHaveLength(1);
    const elapsed = () => within(live).getByTestId("call-elapsed").textContent;
    expect(elapsed()).toBe("5s");
    act(() => vi.advanceTimersByTime(1_000));
    expect(elapsed()).toBe("6s");
    act(() => vi.advanceTimersByTime(60_000));
    expect(elapsed()).toBe("1m 06s");
    expect(sent(panel.posted)).toEqual([]);
  });

  it("Cancel posts cancelCall once, even on a double click, and does not focus the terminal", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(
      snapshot([agent({ status: "active", tools: [tool({ id: "t1" })] })], null, [
        { agentId: "agent-1", calls: [liveCall({ callId: "c1", toolUseId: "t1" })], prompts: [], sharedFiles: [], worktree: null, sessionEdits: null },
      ]),
    );
    const cancel = within(pinned()).getByTestId("call-cancel");
    expect(cancel).toHaveAttribute("aria-label", "Cancel execute_command");
    await user.dblClick(cancel);
    expect(sent(panel.posted)).toEqual([{ type: "cancelCall", callId: "c1" }]);
    // The call is being finished: Complete is off too.
    await waitFor(() => expect(cancel).toHaveAttribute("disabled"));
    await waitFor(() => expect(within(pinned()).getByTestId("call-complete")).toHaveAttribute("disabled"));
    await user.click(within(pinned()).getByTestId("call-complete"));
    expect(sent(panel.posted)).toEqual([{ type: "cancelCall", callId: "c1" }]);
  });

  it("Complete posts completeCall once, two clicks before any re-render included; its tooltip says what it does", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ status: "active", tools: [tool({ id: "t1" })] })]));
    panel.send(agentLive("agent-1", { calls: [liveCall({ callId: "c1", toolUseId: "t1", completeHint: "Return the output so far" })] }));
    const complete = within(pinned()).getByTestId("call-complete");
    expect(complete).toHaveAttribute("title", "Return the output so far");
    expect(complete).toHaveAttribute("aria-label", "Complete execute_command");
    act(() => {
      complete.click();
      complete.click();
    });
    expect(sent(panel.posted)).toEqual([{ type: "completeCall", callId: "c1" }]);
  });

  it("the buttons go as soon as the call leaves the live view; the row's outcome comes from the transcript", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ status: "active", tools: [tool({ id: "t1", startedAt: Date.now() })] })]));
    panel.send(agentLive("agent-1", { calls: [liveCall({ callId: "c1", toolUseId: "t1" })] }));
    expect(within(card()).getByTestId("call-complete")).toBeInTheDocument();
    panel.send(agentLive("agent-1"));
    expect(within(card()).queryByTestId("live-call")).not.toBeInTheDocument();
    expect(within(card()).queryByTestId("call-cancel")).not.toBeInTheDocument();
    expect(row("t1")).toHaveAttribute("data-outcome", "running");
    expect(within(row("t1")).getByTestId("tool-elapsed")).toBeInTheDocument();
    panel.send(agentPart(agent({ status: "active", tools: [tool({ id: "t1", outcome: "interrupted" })] })));
    expect(row("t1")).toHaveAttribute("data-outcome", "interrupted");
  });

  it("with or without a row to sit on, calls are pinned in the order they came, each named; none at the foot", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ status: "active", tools: [tool({ id: "t0", label: "Reading a.ts" })] })]));
    panel.send(
      agentLive("agent-1", {
        calls: [
          liveCall({ callId: "c1", toolUseId: null, tool: "execute_command", display: "npm test" }),
          liveCall({ callId: "c2", toolUseId: "t9", tool: "read_file", display: "b.ts" }),
        ],
      }),
    );
    const calls = within(pinned()).getAllByTestId("live-call");
    expect(calls.map((c) => c.dataset.callId)).toEqual(["c1", "c2"]);
    expect(calls[0]).toHaveTextContent("execute_command: npm test");
    expect(calls[0]).not.toHaveAttribute("data-tool-use-id");
    expect(calls[1]).toHaveTextContent("read_file: b.ts");
    expect(within(calls[1]!).getByTestId("call-cancel")).toHaveAttribute("aria-label", "Cancel read_file");
    expect(within(card()).queryByTestId("card-foot")).not.toBeInTheDocument();

    panel.send(agentPart(agent({ status: "active", tools: [tool({ id: "t0" }), tool({ id: "t9", label: "read_file (arcadia)" })] })));
    expect(row("t9")).toHaveClass("has-live");
    expect(
      within(pinned())
        .getAllByTestId("live-call")
        .map((c) => c.dataset.callId),
    ).toEqual(["c1", "c2"]);
  });

  it("a call of a sub-agent's tool is pinned too; its nested row is marked", () => {
    const panel = renderPanel();
    const tools = [tool({ id: "task", name: "Agent", label: "Subtask: check" }), tool({ id: "s1", label: "Running: make", parent: "task" })];
    panel.send(snapshot([agent({ status: "active", tools })]));
    panel.send(agentLive("agent-1", { calls: [liveCall({ callId: "c1", toolUseId: "s1" })] }));
    expect(within(pinned()).getByTestId("live-call")).toBeInTheDocument();
    expect(row("s1")).toHaveClass("has-live");
    expect(row("s1").closest(".tool-children")).not.toBeNull();
  });

  it("a card that arrives with a call in flight shows it at once (the card store sends the agent's first card with what was live before)", () => {
    const panel = renderPanel();
    panel.send({ type: "cardChanged", card: agent({ status: "active", calls: [liveCall({ callId: "c1" })] }) });
    expect(within(card()).getByTestId("live-call")).toHaveAttribute("data-call-id", "c1");
  });
});

describe("prompts", () => {
  it("Claude's permission prompt shows under the overview with Allow, Deny, Always allow and a way to its terminal; its row says it waits", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(
      snapshot([agent({ status: "needsYou", needsYou: { kind: "permission" }, tools: [tool({ id: "t1", name: "Bash", label: "Running: rm -rf build" })] })]),
    );
    panel.send(agentLive("agent-1", { prompts: [prompt({ id: "p1", toolUseId: "t1", subject: "Bash: rm -rf build", canAlwaysAllow: true })] }));

    // Under the overview, beside its agent's name: never in a part of the card scrolled away.
    expect(promptsOf()).toHaveTextContent(/^Agent #1/);
    const p = within(promptsOf()!).getByTestId("prompt");
    expect(within(row("t1")).getByTestId("tool-asks")).toHaveTextContent("answer it above");
    expect(within(card()).queryByTestId("prompt")).not.toBeInTheDocument();
    expect(p).toHaveAttribute("data-prompt-id", "p1");
    expect(p).toHaveAttribute("data-kind", "permission");
    expect(p).toHaveTextContent("Bash: rm -rf build");
    expect(within(p).getByTestId("prompt-allow")).toHaveAttribute("aria-label", "Allow Bash: rm -rf build");
    expect(within(p).getByTestId("prompt-deny")).toHaveAttribute("aria-label", "Deny Bash: rm -rf build");

    await user.click(within(p).getByTestId("prompt-reveal"));
    await user.click(within(p).getByTestId("prompt-always"));
    await user.click(within(p).getByTestId("prompt-allow"));
    expect(sent(panel.posted)).toEqual([
      { type: "revealPrompt", id: "p1" },
      { type: "answerPrompt", id: "p1", decision: "alwaysAllow" },
    ]);
    for (const id of ["prompt-allow", "prompt-deny", "prompt-always"]) await waitFor(() => expect(within(p).getByTestId(id)).toHaveAttribute("disabled"));
    // Looking again is still possible after answering.
    expect(disabled(within(p).getByTestId("prompt-reveal"))).toBe(false);

    // Answered (here or in the terminal): the prompt leaves the live view and its buttons go.
    panel.send(agentLive("agent-1"));
    expect(promptsOf()).toBeUndefined();
    expect(within(row("t1")).queryByTestId("tool-asks")).not.toBeInTheDocument();
  });

  it("Deny answers deny, once", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent({ status: "active", tools: [tool({ id: "t1" })] })]));
    panel.send(agentLive("agent-1", { prompts: [prompt({ id: "a1", kind: "command", subject: "npm publish", toolUseId: "t1" })] }));
    const p = within(promptsOf()!).getByTestId("prompt");
    // Arcadia's own approvals: no "Always allow" unless offered, nothing to reveal for a command.
    expect(within(p).queryByTestId("prompt-always")).not.toBeInTheDocument();
    expect(within(p).queryByTestId("prompt-reveal")).not.toBeInTheDocument();
    await user.dblClick(within(p).getByTestId("prompt-deny"));
    await user.click(within(p).getByTestId("prompt-allow"));
    expect(sent(panel.posted)).toEqual([{ type: "answerPrompt", id: "a1", decision: "deny" }]);
  });

  it("a write shows Show diff; the call it holds up is pinned under the header", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent({ status: "active" })]));
    panel.send(
      agentLive("agent-1", {
        prompts: [prompt({ id: "w1", kind: "write", subject: "src/app.ts", toolUseId: null })],
        calls: [liveCall({ callId: "c1", tool: "write_file", display: "src/app.ts" })],
      }),
    );
    const foot = within(card()).getByTestId("card-foot");
    expect(within(foot).getByTestId("tool-asks")).toBeInTheDocument();
    const p = within(promptsOf()!).getByTestId("prompt");
    expect(p).toHaveAttribute("data-kind", "write");
    expect(within(p).getByTestId("prompt-reveal")).toHaveTextContent("Show diff");
    expect(within(pinned()).getByTestId("live-call")).toHaveTextContent("write_file: src/app.ts");
    await user.click(within(p).getByTestId("prompt-reveal"));
    await user.click(within(p).getByTestId("prompt-allow"));
    expect(sent(panel.posted)).toEqual([
      { type: "revealPrompt", id: "w1" },
      { type: "answerPrompt", id: "w1", decision: "allow" },
    ]);
  });

  it("an agent with a prompt stands out; a new prompt of the same agent has fresh buttons", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1, status: "active" }), agent({ index: 2, status: "active" })]));
    panel.send(agentLive("agent-1", { prompts: [prompt({ id: "p1" })] }));
    expect(line("agent-1")).toHaveAttribute("data-needs-answer", "true");
    expect(line("agent-1")).toHaveClass("needs-answer");
    expect(line("agent-2")).not.toHaveAttribute("data-needs-answer");
    expect(card("agent-1")).toHaveClass("needs-answer");
    await user.click(within(promptsOf("agent-1")!).getByTestId("prompt-allow"));
    expect(disabled(within(promptsOf("agent-1")!).getByTestId("prompt-allow"))).toBe(true);
    panel.send(agentLive("agent-1", { prompts: [prompt({ id: "p2" })] }));
    expect(disabled(within(promptsOf("agent-1")!).getByTestId("prompt-allow"))).toBe(false);
    panel.send(agentLive("agent-1"));
    expect(line("agent-1")).not.toHaveAttribute("data-needs-answer");
  });

  it("two agents' prompts both show under the overview, each under its agent's name, in the agents' order", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1, status: "active" }), agent({ index: 2, status: "active" }), agent({ index: 3, status: "active" })]));
    panel.send(agentLive("agent-3", { prompts: [prompt({ id: "p3", subject: "Bash: touch c" })] }));
    panel.send(agentLive("agent-1", { prompts: [prompt({ id: "p1", subject: "Bash: touch a" })] }));
    const blocks = screen.getAllByTestId("agent-prompts");
    expect(blocks.map((b) => b.dataset.agentId)).toEqual(["agent-1", "agent-3"]);
    expect(blocks[1]).toHaveTextContent(/^Agent #3.*Bash: touch c.*Allow.*Deny/);
  });
});

describe("exact status", () => {
  it("needs you has its own text (saying what for), icon and accent, unlike idle and working", () => {
    const panel = renderPanel();
    panel.send(
      snapshot([agent({ index: 1, status: "needsYou", needsYou: { kind: "permission" }, statusSource: "process" }), agent({ index: 2, status: "waiting" })]),
    );
    expect(card("agent-1")).toHaveAttribute("data-status", "needsYou");
    expect(within(card("agent-1")).getByTestId("agent-status")).toHaveTextContent("Needs you: permission");
    expect(within(card("agent-2")).getByTestId("agent-status")).toHaveTextContent("Idle");
    expect(within(card("agent-1")).getByTestId("status-icon")).toHaveClass("codicon-bell-dot");
    expect(card("agent-1")).toHaveAttribute("data-needs-answer", "true");
    expect(within(card("agent-2")).queryByTestId("status-icon")).not.toBeInTheDocument();
    panel.send(agentPart(agent({ index: 1, status: "active" })));
    expect(within(card("agent-1")).getByTestId("agent-status")).toHaveTextContent("Working");
    expect(card("agent-1")).not.toHaveAttribute("data-needs-answer");
  });

  it("claude exited: says so, and Restart posts restartAgent once", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 2, status: "exited" })]));
    const c = card("agent-2");
    expect(c).toHaveAttribute("data-status", "exited");
    expect(within(c).getByTestId("agent-status")).toHaveTextContent("claude exited");
    const restart = within(c).getByTestId("restart-agent");
    expect(restart).toHaveAttribute("aria-label", "Restart claude in Agent #2");
    await user.dblClick(restart);
    expect(sent(panel.posted)).toEqual([{ type: "restartAgent", id: "agent-2" }]);
    expect(disabled(restart)).toBe(true);
    panel.send(agentPart(agent({ index: 2, status: "starting" })));
    expect(within(card("agent-2")).queryByTestId("restart-agent")).not.toBeInTheDocument();
    // Exited again later: a fresh, enabled button.
    panel.send(agentPart(agent({ index: 2, status: "exited" })));
    expect(disabled(within(card("agent-2")).getByTestId("restart-agent"))).toBe(false);
  });

  it("a Restart that did not take (claude still exited 10 s later) can be tried again", async () => {
    vi.useFakeTimers();
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 2, status: "exited" })]));
    const restart = within(card("agent-2")).getByTestId("restart-agent");
    act(() => restart.click());
    expect(disabled(restart)).toBe(true);
    act(() => vi.advanceTimersByTime(10_000));
    expect(disabled(within(card("agent-2")).getByTestId("restart-agent"))).toBe(false);
    vi.useRealTimers();
  });

  it("no Restart while claude runs", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ status: "waiting" })]));
    expect(within(card()).queryByTestId("restart-agent")).not.toBeInTheDocument();
  });
});

describe("context gauge", () => {
  it("shows the share of the window as an accessible meter, with the numbers in its tooltip", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ context: { usedTokens: 123_000, windowTokens: 200_000 } })]));
    const gauge = within(card()).getByRole("meter", { name: "Context window used" });
    expect(gauge).toHaveAttribute("data-testid", "context-gauge");
    expect(gauge).toHaveAttribute("data-percent", "62");
    expect(gauge).toHaveAttribute("aria-valuenow", "62");
    expect(gauge).toHaveAttribute("aria-valuetext", "62%, 123k of 200k tokens");
    expect(gauge).toHaveAttribute("title", "Context: 123k of 200k tokens (62%)");
    expect(gauge).toHaveTextContent("62%");
    expect(gauge).not.toHaveClass("context-warning");
    expect(gauge.querySelector(".context-fill")).toHaveAttribute("width", "62");
  });

  it.each([
    [160_000, "80", false],
    [170_000, "85", true],
    [240_000, "100", true],
  ])("%i of 200k tokens: %s%%, warning: %s", (usedTokens, percent, warning) => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ context: { usedTokens, windowTokens: 200_000 } })]));
    const gauge = within(card()).getByTestId("context-gauge");
    expect(gauge).toHaveAttribute("data-percent", percent);
    expect(gauge.classList.contains("context-warning")).toBe(warning);
  });

  it("is hidden while there is no usage", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ context: null })]));
    expect(within(card()).queryByTestId("context-gauge")).not.toBeInTheDocument();
    panel.send(agentPart(agent({ context: { usedTokens: 1_000, windowTokens: 200_000 } })));
    expect(within(card()).getByTestId("context-gauge")).toHaveAttribute("data-percent", "1");
  });
});
