import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { SessionRowView, TurnSummaryView } from "../../src/shared/protocol";
import type { ReaderPush } from "../../src/shared/protocols/reader";
import type { SessionsPush } from "../../src/shared/protocols/sessions";
import { READER_PAGE, SessionReaderApp } from "../src/SessionReaderApp";
import { SessionsApp } from "../src/SessionsApp";
import { agent, agentLive, fakeVsCode, innerInput, renderPanel, snapshot, tool } from "./helpers";

const cells = (tr: HTMLElement) => Array.from(tr.querySelectorAll("td")).map((td) => td.textContent?.trim() ?? "");
const send = (message: SessionsPush | ReaderPush) => act(() => void window.dispatchEvent(new MessageEvent("message", { data: message })));

function row(overrides: Partial<SessionRowView> & { sessionId: string; title: string }): SessionRowView {
  return {
    firstPrompt: null,
    search: overrides.title.toLowerCase(),
    startedAt: Date.UTC(2026, 10, 26, 6),
    lastActiveAt: Date.UTC(2026, 10, 26, 7),
    turns: null,
    activeMs: null,
    filesEdited: null,
    tokens: null,
    costUsd: null,
    followedBy: null,
    worktree: null,
    limit: null,
    race: null,
    ...overrides,
  };
}

describe("the Sessions view", () => {
  it("asks for its list, shows sessions newest first by title with their figures, and filters by prompt text", async () => {
    const host = fakeVsCode();
    render(<SessionsApp />);
    expect(host.posted).toEqual([{ type: "sessionsReady" }]);
    expect(screen.getByTestId("sessions-count")).toHaveTextContent("Reading sessions…");
    send({
      type: "sessionsList",
      indexing: 1,
      sessions: [
        row({ sessionId: "a", title: "Fix the login page", lastActiveAt: 1 }),
        row({
          sessionId: "b",
          title: "Billing fix",
          firstPrompt: "Plan the billing fix",
          search: "billing fix\nplan the billing fix\nadd invoices",
          lastActiveAt: 2,
          turns: 3,
          activeMs: 42_000,
          filesEdited: 2,
          tokens: 12_345,
          costUsd: 0.42,
          followedBy: "Agent #2",
        }),
      ],
    });
    const rows = () => screen.getAllByTestId("session-row");
    expect(rows().map((r) => within(r).getByTestId("session-open").textContent)).toEqual(["Billing fix", "Fix the login page"]);
    // Turns, working time, files, tokens, cost: in their columns; a session not read yet shows "…".
    expect(cells(rows()[0]!).slice(4, 9)).toEqual(["3", "42 s", "2", "12.3k", "~$0.42"]);
    expect(cells(rows()[1]!).slice(4, 9)).toEqual(["…", "…", "…", "…", "…"]);
    expect(within(rows()[0]!).getByTestId("session-followed")).toHaveTextContent("Open in Agent #2");
    expect(within(rows()[0]!).getByTestId("session-resume")).toHaveTextContent("Show");
    expect(screen.getByTestId("sessions-count")).toHaveTextContent("2 sessions · reading 1…");

    const user = userEvent.setup();
    await user.type(innerInput(screen.getByTestId("sessions-filter")), "invoices");
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.getByTestId("sessions-count")).toHaveTextContent("1 of 2 sessions");

    await user.click(within(rows()[0]!).getByTestId("session-open"));
    await user.click(within(rows()[0]!).getByTestId("session-raw"));
    expect(host.posted.slice(1)).toEqual([
      { type: "sessionAction", sessionId: "b", action: "open" },
      { type: "sessionAction", sessionId: "b", action: "raw" },
    ]);
  });

  it("fills a row in when its session has been read whole", () => {
    fakeVsCode();
    render(<SessionsApp />);
    send({ type: "sessionsList", indexing: 1, sessions: [row({ sessionId: "a", title: "Fix the login page" })] });
    expect(cells(screen.getByTestId("session-row"))[4]).toBe("…");
    send({ type: "sessionRow", indexing: 0, session: row({ sessionId: "a", title: "Fix the login page", turns: 5 }) });
    expect(cells(screen.getByTestId("session-row"))[4]).toBe("5");
    expect(screen.getByTestId("sessions-count")).toHaveTextContent("1 session");
  });

  it("sorts by any column: figures largest first, again the other way; a session not read yet stays last", async () => {
    fakeVsCode();
    render(<SessionsApp />);
    send({
      type: "sessionsList",
      indexing: 1,
      sessions: [
        row({ sessionId: "a", title: "alpha", lastActiveAt: 3, costUsd: 0.1, turns: 1 }),
        row({ sessionId: "b", title: "Bravo", lastActiveAt: 2, costUsd: 2.5, turns: 9 }),
        row({ sessionId: "c", title: "charlie", lastActiveAt: 1 }),
      ],
    });
    const order = () => screen.getAllByTestId("session-row").map((r) => r.dataset.sessionId);
    expect(order()).toEqual(["a", "b", "c"]);
    const user = userEvent.setup();
    await user.click(screen.getByTestId("sort-costUsd"));
    expect(order()).toEqual(["b", "a", "c"]);
    expect(screen.getByTestId("sort-costUsd").closest("th")).toHaveAttribute("aria-sort", "descending");
    await user.click(screen.getByTestId("sort-costUsd"));
    expect(order()).toEqual(["a", "b", "c"]);
    await user.click(screen.getByTestId("sort-title"));
    expect(order()).toEqual(["a", "b", "c"]);
    await user.click(screen.getByTestId("sort-title"));
    expect(order()).toEqual(["c", "b", "a"]);
  });

  it("shows the whole title, never cut", () => {
    fakeVsCode();
    render(<SessionsApp />);
    const title = "What does the authentication middleware do when the session cookie has expired but the refresh token is still valid?";
    send({ type: "sessionsList", indexing: 0, sessions: [row({ sessionId: "a", title })] });
    expect(screen.getByTestId("session-open").textContent).toBe(title);
  });
});

describe("the session reader", () => {
  it("streams a session in: prompts, Markdown replies with raw HTML escaped, tool rows nested, outcomes updated, search", async () => {
    const host = fakeVsCode();
    render(<SessionReaderApp sessionId="s1" />);
    expect(host.posted).toEqual([{ type: "sessionsReady" }]);
    send({
      type: "sessionItems",
      title: "Billing fix",
      reset: true,
      done: false,
      updates: [],
      items: [
        { kind: "prompt", text: "Plan the billing fix", turn: 1, source: "user" },
        { kind: "tool", id: "t1", label: "Subtask: explore", parent: null, outcome: "running" },
        { kind: "tool", id: "t2", label: "Reading App.tsx", parent: "t1", outcome: "done" },
      ],
    });
    send({
      type: "sessionItems",
      title: "Billing fix",
      reset: false,
      done: true,
      updates: [{ id: "t1", outcome: "done" }],
      items: [{ kind: "reply", text: "**Done** <img src=x onerror=alert(1)>" }],
    });
    expect(screen.getByTestId("reader-title")).toHaveTextContent("Billing fix");
    expect(screen.getByTestId("reader-prompt")).toHaveTextContent("Turn 1 · You");
    const tools = screen.getAllByTestId("reader-tool");
    expect(tools.map((t) => t.className)).toEqual(["reader-tool outcome-done", "reader-tool outcome-done nested"]);
    const reply = screen.getByTestId("reader-reply");
    expect(reply.querySelector("strong")).toHaveTextContent("Done");
    expect(reply.querySelector("img")).toBeNull();
    expect(reply).toHaveTextContent("<img src=x onerror=alert(1)>");

    const user = userEvent.setup();
    await user.type(innerInput(screen.getByTestId("reader-search")), "app.tsx");
    await waitFor(() => expect(screen.getAllByTestId("reader-tool")).toHaveLength(1));
    expect(screen.queryByTestId("reader-prompt")).toBeNull();
    await user.click(screen.getByTestId("reader-resume"));
    expect(host.posted.at(-1)).toEqual({ type: "sessionAction", sessionId: "s1", action: "resume" });
  });

  it("a command sent while it ran reads, once its update says it is done, as the command beside its ✓, not 'Running: …'", () => {
    fakeVsCode();
    render(<SessionReaderApp sessionId="s1" />);
    const items = [{ kind: "tool" as const, id: "t1", label: "Running: wc -l README.md", parent: null, outcome: "running" as const }];
    send({ type: "sessionItems", title: "Count", reset: true, done: false, updates: [], items });
    expect(screen.getByTestId("reader-tool")).toHaveTextContent("Running: wc -l README.md");
    send({ type: "sessionItems", title: "Count", reset: false, done: true, updates: [{ id: "t1", outcome: "done", label: "wc -l README.md" }], items: [] });
    const row = screen.getByTestId("reader-tool");
    expect(row.textContent?.trim()).toBe("wc -l README.md");
    expect(row.querySelector(".codicon-check")).not.toBeNull();
  });
});

describe("the reader of a session whose folder is gone", () => {
  it("says why it cannot resume instead of offering Resume, as its row in the list does", () => {
    const host = fakeVsCode();
    render(<SessionReaderApp sessionId="s1" />);
    const why =
      "its worktree gone-notes is gone (/repo/.claude/worktrees/gone-notes): Claude Code finds a session by its folder. Its transcript is still readable.";
    send({ type: "sessionItems", title: "Notes", reset: true, done: true, updates: [], items: [], cannotResume: why });
    expect(screen.queryByTestId("reader-resume")).toBeNull();
    expect(screen.getByTestId("reader-cannot-resume")).toHaveTextContent(`Cannot resume: ${why}`);
    expect(host.posted).toEqual([{ type: "sessionsReady" }]);
    // Raw JSONL is still there: the transcript stays readable.
    expect(screen.getByTestId("reader-raw")).toBeTruthy();
  });
});

describe("a long session in the reader", () => {
  it("renders the first items and more on request", async () => {
    fakeVsCode();
    render(<SessionReaderApp sessionId="s1" />);
    const items = Array.from({ length: READER_PAGE + 10 }, (_, i) => ({
      kind: "tool" as const,
      id: `t${i}`,
      label: `Reading f${i}.ts`,
      parent: null,
      outcome: "done" as const,
    }));
    send({ type: "sessionItems", title: "Long", reset: true, done: true, updates: [], items });
    expect(screen.getAllByTestId("reader-tool")).toHaveLength(READER_PAGE);
    await userEvent.setup().click(screen.getByTestId("reader-more"));
    expect(screen.getAllByTestId("reader-tool")).toHaveLength(READER_PAGE + 10);
    expect(screen.queryByTestId("reader-more")).toBeNull();
  });
});

describe("a card's session figures", () => {
  const turn = (n: number, ending: TurnSummaryView["ending"] = "completed"): TurnSummaryView => ({
    number: n,
    prompt: `Prompt ${n}`,
    durationMs: 42_000,
    tools: 5,
    ending,
    rows: [{ label: "Reading App.tsx", outcome: "done" }],
  });

  it("shows earlier turns collapsed to one line each, expandable; tokens and cost; a limit; the header's total", async () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1, tools: [tool({ id: "now", outcome: "done" })] }), agent({ index: 2 })]));
    panel.send(
      agentLive("agent-1", {
        history: [turn(1), turn(2, "interrupted")],
        usage: { tokens: { input: 1000, output: 2000, cacheRead: 9000, cacheWrite: 500 }, costUsd: 0.42, unpricedModels: [] },
        limit: "Usage limit reached — resets at 14:00",
      }),
    );
    panel.send(agentLive("agent-2", { usage: { tokens: { input: 100, output: 400, cacheRead: 0, cacheWrite: 0 }, costUsd: 1, unpricedModels: [] } }));
    const first = screen.getAllByTestId("agent-card")[0]!;
    const lines = within(first).getAllByTestId("turn-summary");
    expect(lines.map((l) => l.querySelector(".turn-text")?.textContent)).toEqual([
      "Turn 2 · 5 tools · 42 s · interrupted",
      "Turn 1 · 5 tools · 42 s · completed",
    ]);
    // Under the current turn's rows.
    expect(within(first).getByTestId("turn-history").compareDocumentPosition(first.querySelector(".tool-list")!)).toBe(Node.DOCUMENT_POSITION_PRECEDING);
    expect(within(first).queryByTestId("turn-rows")).toBeNull();
    await userEvent.setup().click(lines[1]!.querySelector("button")!);
    expect(within(first).getByTestId("turn-rows")).toHaveTextContent("Reading App.tsx");
    expect(within(first).getByTestId("agent-usage")).toHaveTextContent("12.5k tokens · ~$0.42");
    expect(within(first).getByTestId("agent-limit")).toHaveTextContent("Usage limit reached — resets at 14:00");
    expect(screen.getByTestId("usage-total")).toHaveTextContent("13k tokens · ~$1.42");
  });

  it("a cost under a cent reads '< $0.01', not '~<$0.01': a bound is not an estimate of an estimate", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 })]));
    panel.send(agentLive("agent-1", { usage: { tokens: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0 }, costUsd: 0.004, unpricedModels: [] } }));
    expect(screen.getByTestId("agent-usage").textContent).toBe("120 tokens · < $0.01");
    expect(screen.getByTestId("usage-total").textContent).toBe("120 tokens · < $0.01");
  });

  it("a turn a limit stopped says the limit instead of a generic Error, on the card and on the agent's line", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1, status: "waiting", lastTurn: "error" })]));
    expect(screen.getByTestId("agent-status")).toHaveTextContent("Error");
    expect(screen.getByTestId("line-status")).toHaveTextContent("Error");
    panel.send(agentLive("agent-1", { limit: "Usage limit reached — resets at 14:00" }));
    expect(screen.getByTestId("agent-status")).toHaveTextContent("Usage limit reached — resets at 14:00");
    expect(screen.getByTestId("line-status")).toHaveTextContent("Usage limit reached — resets at 14:00");
    expect(screen.queryByTestId("agent-limit")).toBeNull();
  });
});
