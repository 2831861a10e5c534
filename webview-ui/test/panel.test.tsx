import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { agent, agentPart, details, innerInput, line, renderPanel, snapshot, tool } from "./helpers";

const card = details;
const rows = (scope: HTMLElement) => within(scope).queryAllByTestId("tool-row");
const rowByLabel = (label: string) => within(card()).getByText(label).closest<HTMLElement>("[data-testid=tool-row]")!;
const lineNames = () => screen.getAllByTestId("line-name").map((n) => n.textContent);

describe("messaging", () => {
  it("asks for everything on mount, and shows the snapshot it gets back", async () => {
    const panel = renderPanel();
    expect(panel.posted).toEqual([{ type: "webviewReady", requestId: expect.any(Number) }]);
    await panel.answer("webviewReady", snapshot([agent({ index: 2 }), agent({ index: 1 })]));
    expect(lineNames()).toEqual(["Agent #1", "Agent #2"]);
  });

  it("updates, adds and removes cards; a repeated snapshot makes no duplicates", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 })]));
    panel.send(snapshot([agent({ index: 1 })]));
    expect(screen.getAllByTestId("agent-line")).toHaveLength(1);
    panel.send(agentPart(agent({ index: 2, status: "active" })));
    panel.send(agentPart(agent({ index: 1, name: "Frontend" })));
    expect(lineNames()).toEqual(["Frontend", "Agent #2"]);
    panel.send({ type: "cardRemoved", id: "agent-1" });
    expect(lineNames()).toEqual(["Agent #2"]);
  });

  it("a view shown again asks again, paints what it had at once, and ends up with exactly the new snapshot", () => {
    const first = renderPanel();
    first.send(snapshot([agent({ index: 1 }), agent({ index: 2 })]));
    const saved = first.state();
    first.unmount();

    const again = renderPanel({ saved });
    expect(again.posted).toEqual([{ type: "webviewReady", requestId: expect.any(Number) }]);
    expect(screen.getAllByTestId("agent-line")).toHaveLength(2);
    again.send(snapshot([agent({ index: 2, status: "active" })]));
    expect(screen.getAllByTestId("agent-line").map((c) => c.dataset.status)).toEqual(["active"]);
  });

  it("ignores page messages that are not the extension's", () => {
    const panel = renderPanel();
    panel.send({ type: "hello" } as never);
    expect(screen.getByTestId("empty-state")).toBeInTheDocument();
  });
});

describe("empty state", () => {
  it("tells a new user what to do, with the button to do it", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([]));
    const empty = screen.getByTestId("empty-state");
    expect(empty).toHaveTextContent("Open Claude Code to start an agent. Each agent gets its own terminal; its card shows what it is doing.");
    await user.click(within(empty).getByText("Open Claude Code"));
    expect(panel.posted).toContainEqual({ type: "openClaude" });
  });

  it("goes away when an agent arrives", () => {
    const panel = renderPanel();
    panel.send(agentPart(agent()));
    expect(screen.queryByTestId("empty-state")).not.toBeInTheDocument();
  });
});

describe("top bar", () => {
  it("opens Claude Code and shows the Sessions view", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent()]));
    await user.click(screen.getByTestId("open-claude"));
    await user.click(screen.getByTestId("open-sessions"));
    expect(screen.getByTestId("open-claude")).toHaveTextContent("Open Claude Code");
    expect(screen.getByTestId("open-sessions")).toHaveTextContent("Sessions");
    expect(panel.posted.slice(1)).toEqual([{ type: "openClaude" }, { type: "showSessions" }]);
  });
});

describe("status", () => {
  it.each([
    [{ status: "starting" }, "starting", "Starting…"],
    [{ status: "active" }, "active", "Working"],
    [{ status: "waiting", lastTurn: "completed" }, "waiting", "Idle"],
    [{ status: "waiting", lastTurn: "none" }, "waiting", "Idle"],
    [{ status: "compacting" }, "compacting", "Compacting…"],
    [{ status: "needsYou", needsYou: { kind: "approval" } }, "needsYou", "Needs you: approval"],
    [{ status: "needsYou", needsYou: { kind: "review" } }, "needsYou", "Needs you: review the diff"],
    [{ status: "exited" }, "exited", "claude exited"],
    [{ status: "waiting", lastTurn: "interrupted" }, "interrupted", "Interrupted"],
    [{ status: "waiting", lastTurn: "error" }, "error", "Error"],
  ] as const)("%o shows as %s: %s", (fields, dataStatus, text) => {
    const panel = renderPanel();
    panel.send(snapshot([agent(fields)]));
    expect(card()).toHaveAttribute("data-status", dataStatus);
    const status = within(card()).getByTestId("agent-status");
    expect(status).toHaveTextContent(text);
    expect(status).toHaveAttribute("aria-live", "polite");
  });

  it("shows the API error being retried", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ status: "active", retry: { message: "Overloaded", attempt: 2, maxRetries: 10 } })]));
    expect(card()).toHaveTextContent("API error, retrying (2/10): Overloaded");
    panel.send(agentPart(agent({ status: "active", retry: null })));
    expect(card()).not.toHaveTextContent("retrying");
  });
});

describe("tools", () => {
  it("shows each tool with its outcome, as plain text", () => {
    const panel = renderPanel();
    const tools = [
      tool({ id: "t1", label: "Reading <b>App.tsx</b>", outcome: "done", startedAt: 1_000, endedAt: 4_000 }),
      tool({ id: "t2", label: "Running: npm test", outcome: "error" }),
      tool({ id: "t3", label: "Editing a.ts", outcome: "interrupted" }),
      tool({ id: "t4", label: "Searching", outcome: "orphaned" }),
      tool({ id: "t5", label: "Writing b.ts", outcome: "running" }),
    ];
    panel.send(snapshot([agent({ status: "active", tools })]));
    expect(rows(card()).map((r) => [r.dataset.toolId, r.dataset.outcome])).toEqual([
      ["t1", "done"],
      ["t2", "error"],
      ["t3", "interrupted"],
      ["t4", "orphaned"],
      ["t5", "running"],
    ]);
    expect(screen.getByText("Reading <b>App.tsx</b>")).toBeInTheDocument();
    expect(card().querySelector("b")).toBeNull();
    expect(within(rowByLabel("Reading <b>App.tsx</b>")).getByRole("img", { name: "Done" })).toBeInTheDocument();
    expect(within(rowByLabel("Running: npm test")).getByRole("img", { name: "Failed" })).toBeInTheDocument();
    expect(within(rowByLabel("Reading <b>App.tsx</b>")).getByTestId("tool-elapsed")).toHaveTextContent("3s");
  });

  it("a tool whose result was too large to read shows as ended with its output unknown, said in words", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ status: "waiting", tools: [tool({ id: "t1", label: "Output unknown: cat big.log", outcome: "unknown" })] })]));
    const icon = rowByLabel("Output unknown: cat big.log").querySelector(".tool-icon")!;
    expect(icon).toHaveAttribute("title", "Ended — output unknown (its record was too large to read)");
    expect(icon).toHaveClass("codicon-question");
    expect(icon).not.toHaveClass("pulse");
  });

  it("a running tool's counter ticks every second on its own", () => {
    vi.useFakeTimers();
    const start = new Date("2025-01-01T12:00:00Z").getTime();
    vi.setSystemTime(start + 5_000);
    const panel = renderPanel();
    panel.send(snapshot([agent({ status: "active", tools: [tool({ id: "t1", startedAt: start })] })]));
    const elapsed = () => within(card()).getByTestId("tool-elapsed").textContent;
    expect(elapsed()).toBe("5s");
    act(() => vi.advanceTimersByTime(1_000));
    expect(elapsed()).toBe("6s");
    act(() => vi.advanceTimersByTime(57_000));
    expect(elapsed()).toBe("1m 03s");
    // Only the one ready message: the extension does not re-send anything for the clock.
    expect(panel.posted).toEqual([{ type: "webviewReady", requestId: expect.any(Number) }]);
  });

  it("a finished tool stays visible at least 300 ms, even one that came and went between two updates", () => {
    vi.useFakeTimers();
    const panel = renderPanel();
    panel.send(snapshot([agent({ status: "active" })]));
    // The tool is first seen already done, and the next update (100 ms later) no longer has it.
    panel.send(agentPart(agent({ status: "active", tools: [tool({ id: "quick", label: "Reading q.ts", outcome: "done" })] })));
    act(() => vi.advanceTimersByTime(100));
    panel.send(agentPart(agent({ status: "waiting", lastTurn: "completed", tools: [] })));
    expect(screen.getByText("Reading q.ts")).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(150));
    expect(screen.getByText("Reading q.ts")).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(60));
    expect(screen.queryByText("Reading q.ts")).not.toBeInTheDocument();
  });

  it("a tool shown for longer than 300 ms goes as soon as the extension drops it", () => {
    vi.useFakeTimers();
    const panel = renderPanel();
    panel.send(snapshot([agent({ status: "active", tools: [tool({ id: "t1", label: "Reading a.ts", outcome: "done" })] })]));
    act(() => vi.advanceTimersByTime(1_000));
    panel.send(agentPart(agent({ status: "waiting", tools: [] })));
    expect(screen.queryByText("Reading a.ts")).not.toBeInTheDocument();
  });

  it("nests a sub-agent's tools under its Subtask row", () => {
    const panel = renderPanel();
    panel.send(
      snapshot([
        agent({
          status: "active",
          tools: [
            tool({ id: "task", name: "Agent", label: "Subtask: find the bug" }),
            tool({ id: "s1", label: "Reading inner.ts", parent: "task", outcome: "done" }),
            tool({ id: "s2", label: "Running: grep bug", parent: "task" }),
            tool({ id: "top", label: "Reading top.ts" }),
          ],
        }),
      ]),
    );
    const subtask = rowByLabel("Subtask: find the bug").closest("li")!;
    expect(rows(subtask).map((r) => r.dataset.toolId)).toEqual(["task", "s1", "s2"]);
    expect(within(subtask).queryByText("Reading top.ts")).not.toBeInTheDocument();
    expect(rowByLabel("Reading inner.ts").closest("ul")).not.toBe(rowByLabel("Reading top.ts").closest("ul"));
  });
});

describe("cards", () => {
  it("clicking an agent's line focuses its terminal; the details follow the terminal in front", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2, focused: true })]));
    expect(line("agent-2")).toHaveClass("focused");
    expect(line("agent-1")).not.toHaveClass("focused");
    expect(screen.getByTestId("agent-card")).toHaveAttribute("data-agent-id", "agent-2");
    await user.click(within(line("agent-1")).getByTestId("line-name"));
    expect(panel.posted.at(-1)).toEqual({ type: "focusAgent", id: "agent-1" });
    panel.send(snapshot([agent({ index: 1, focused: true }), agent({ index: 2 })]));
    expect(screen.getByTestId("agent-card")).toHaveAttribute("data-agent-id", "agent-1");
  });

  it("the chevron shows an agent's details without leaving the terminal in front, until another terminal comes to the front", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1, focused: true }), agent({ index: 2 }), agent({ index: 3 })]));
    await user.click(within(line("agent-3")).getByTestId("show-details"));
    expect(screen.getByTestId("agent-card")).toHaveAttribute("data-agent-id", "agent-3");
    expect(line("agent-3")).toHaveClass("shown");
    expect(panel.posted.filter((m) => m.type === "focusAgent")).toEqual([]);
    // Updates keep the choice; a terminal coming to the front takes the details along.
    panel.send(agentPart(agent({ index: 2, status: "active" })));
    expect(screen.getByTestId("agent-card")).toHaveAttribute("data-agent-id", "agent-3");
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2, focused: true }), agent({ index: 3 })]));
    expect(screen.getByTestId("agent-card")).toHaveAttribute("data-agent-id", "agent-2");
  });

  it("each agent is one line: name, status, what it does now and for how long", () => {
    vi.useFakeTimers();
    const start = new Date("2025-01-01T12:00:00Z").getTime();
    vi.setSystemTime(start + 12_000);
    const panel = renderPanel();
    panel.send(
      snapshot([
        agent({ index: 1, status: "active", tools: [tool({ id: "t1", label: "Running: npm test", startedAt: start })] }),
        agent({ index: 2, status: "waiting", lastTurn: "completed" }),
        agent({ index: 3, status: "needsYou", needsYou: { kind: "question" } }),
      ]),
    );
    expect(within(line("agent-1")).getByTestId("line-doing")).toHaveTextContent("Running: npm test");
    expect(within(line("agent-1")).getByTestId("line-elapsed")).toHaveTextContent("12s");
    // "Working" goes without saying beside what it works on.
    expect(within(line("agent-1")).queryByTestId("line-status")).not.toBeInTheDocument();
    expect(within(line("agent-2")).getByTestId("line-status")).toHaveTextContent("Idle");
    expect(within(line("agent-2")).queryByTestId("line-doing")).not.toBeInTheDocument();
    expect(within(line("agent-3")).getByTestId("line-status")).toHaveTextContent("Needs you");
    expect(within(line("agent-3")).getByTestId("line-doing")).toHaveTextContent("Waiting on a question in its terminal");
    act(() => vi.advanceTimersByTime(2_000));
    expect(within(line("agent-1")).getByTestId("line-elapsed")).toHaveTextContent("14s");
    vi.useRealTimers();
  });

  it("a card is focusable and activates with Enter and Space", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent()]));
    card().focus();
    await user.keyboard("{Enter}");
    await user.keyboard(" ");
    // Its overview line too.
    within(line())
      .getByRole("button", { name: /^Agent #1/ })
      .focus();
    await user.keyboard("{Enter}");
    expect(panel.posted.slice(1)).toEqual([
      { type: "focusAgent", id: "agent-1" },
      { type: "focusAgent", id: "agent-1" },
      { type: "focusAgent", id: "agent-1" },
    ]);
  });

  it("✕ closes the agent without also focusing it", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 3 })]));
    const close = within(card("agent-3")).getByTestId("close-agent");
    expect(close).toHaveAttribute("aria-label", "Close Agent #3");
    await user.click(close);
    expect(panel.posted.slice(1)).toEqual([{ type: "closeAgent", id: "agent-3" }]);
  });
});

describe("rename", () => {
  async function startRename(how: "double-click" | "button") {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent()]));
    if (how === "double-click") await user.dblClick(within(card()).getByTestId("agent-name"));
    else await user.click(within(card()).getByTestId("rename-agent"));
    const input = innerInput(within(card()).getByTestId("rename-input"));
    // The field opens focused with the whole name selected, so typing replaces it.
    await waitFor(() => {
      expect(input).toHaveValue("Agent #1");
      expect([input.selectionStart, input.selectionEnd]).toEqual([0, "Agent #1".length]);
    });
    const type = (text: string) => user.type(input, text, { skipClick: true });
    return { user, panel, type };
  }
  const sent = (posted: { type: string }[]) => posted.filter((m) => m.type !== "focusAgent" && m.type !== "webviewReady");

  it("Enter saves the trimmed name", async () => {
    const { panel, type } = await startRename("double-click");
    await type("  Frontend work  {Enter}");
    expect(sent(panel.posted)).toEqual([{ type: "renameAgent", id: "agent-1", name: "Frontend work" }]);
    expect(within(card()).getByTestId("agent-name")).toHaveTextContent("Frontend work");
    // The extension confirms with the new name; the card keeps showing it.
    panel.send(agentPart(agent({ name: "Frontend work" })));
    expect(within(card()).getByTestId("agent-name")).toHaveTextContent("Frontend work");
  });

  it("Escape cancels", async () => {
    const { panel, type } = await startRename("button");
    await type("Nope{Escape}");
    expect(sent(panel.posted)).toEqual([]);
    expect(within(card()).getByTestId("agent-name")).toHaveTextContent("Agent #1");
    expect(within(card()).queryByTestId("rename-input")).not.toBeInTheDocument();
  });

  it("an empty name is refused", async () => {
    const { panel, type } = await startRename("button");
    await type("   {Enter}");
    expect(sent(panel.posted)).toEqual([]);
    expect(within(card()).getByRole("alert")).toHaveTextContent("A name cannot be empty.");
    expect(within(card()).getByTestId("rename-input")).toBeInTheDocument();
  });

  it("a name is cut at 80 characters", async () => {
    const { panel, type } = await startRename("button");
    await type(`${"x".repeat(90)}{Enter}`);
    expect(sent(panel.posted)).toEqual([{ type: "renameAgent", id: "agent-1", name: "x".repeat(80) }]);
  });

  it("updates and a new snapshot (the view shown again) do not lose what is being typed", async () => {
    const { panel, type } = await startRename("button");
    await type("Half-typed");
    panel.send(agentPart(agent({ status: "active" })));
    panel.send(snapshot([agent({ status: "active" }), agent({ index: 2 })]));
    expect(innerInput(within(card()).getByTestId("rename-input"))).toHaveValue("Half-typed");
    expect(card()).toHaveAttribute("data-status", "active");
  });

  it("renaming does not focus the terminal", async () => {
    const { panel, type } = await startRename("button");
    await type("X{Enter}");
    expect(panel.posted.filter((m) => m.type === "focusAgent")).toEqual([]);
  });
});

describe("notice", () => {
  it("shows its message and posts the chosen action", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(
      snapshot([], {
        kind: "claudeMissing",
        message: "Claude Code (claude) was not found on PATH.",
        actions: [
          { label: "Install Claude Code", command: "openInstallDocs" },
          { label: "Dismiss", command: "dismissNotice" },
        ],
      }),
    );
    const notice = screen.getByTestId("notice");
    expect(notice).toHaveTextContent("Claude Code (claude) was not found on PATH.");
    await user.click(within(notice).getByText("Install Claude Code"));
    expect(panel.posted.at(-1)).toEqual({ type: "noticeAction", command: "openInstallDocs" });
    panel.send({ type: "notice", notice: null });
    expect(screen.queryByTestId("notice")).not.toBeInTheDocument();
  });
});
