/** The Sessions tab keeps its sort when left and shown again, and offers Resume only where it can work. */
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { SessionRowView } from "../../src/shared/protocol";
import type { SessionsPush } from "../../src/shared/protocols/sessions";
import { SessionsApp } from "../src/SessionsApp";
import { fakeVsCode } from "./helpers";

const send = (message: SessionsPush) => act(() => void window.dispatchEvent(new MessageEvent("message", { data: message })));

function row(overrides: Partial<SessionRowView> & { sessionId: string; title: string }): SessionRowView {
  const base = { firstPrompt: null, search: overrides.title.toLowerCase(), startedAt: 1, lastActiveAt: 2, turns: 1, activeMs: 1_000, filesEdited: 1 };
  return { ...base, tokens: 10, costUsd: 0.01, followedBy: null, worktree: null, limit: null, race: null, ...overrides };
}

const order = () => screen.getAllByTestId("session-row").map((r) => r.dataset.sessionId);
const sessions = [
  row({ sessionId: "small", title: "Small", tokens: 100, lastActiveAt: 30 }),
  row({ sessionId: "big", title: "Big", tokens: 90_000, lastActiveAt: 10 }),
  row({ sessionId: "mid", title: "Mid", tokens: 5_000, lastActiveAt: 20 }),
];

describe("the Sessions tab", () => {
  it("keeps its sort (Tokens, largest first) when the tab is left and shown again: the page is made anew", async () => {
    const user = userEvent.setup();
    const host = fakeVsCode();
    const first = render(<SessionsApp />);
    send({ type: "sessionsList", sessions, indexing: 0 });
    expect(order()).toEqual(["small", "mid", "big"]);
    await user.click(screen.getByTestId("sort-tokens"));
    expect(order()).toEqual(["big", "mid", "small"]);
    first.unmount();
    // Shown again: VS Code gives the page the state it kept.
    fakeVsCode(host.state());
    render(<SessionsApp />);
    send({ type: "sessionsList", sessions, indexing: 0 });
    expect(order()).toEqual(["big", "mid", "small"]);
    expect(screen.getByTestId("sort-tokens").closest("th")).toHaveAttribute("aria-sort", "descending");
  });

  it("a kept state that is not a sort is ignored: newest first", () => {
    fakeVsCode({ sort: { key: "constructor", descending: "yes" } });
    render(<SessionsApp />);
    send({ type: "sessionsList", sessions, indexing: 0 });
    expect(order()).toEqual(["small", "mid", "big"]);
  });

  it("a session whose worktree is gone says so instead of offering Resume; the others keep Resume (or Show)", () => {
    fakeVsCode();
    render(<SessionsApp />);
    const why =
      "its worktree fix-login is gone (/repo/.claude/worktrees/fix-login): Claude Code finds a session by its folder. Its transcript is still readable.";
    send({
      type: "sessionsList",
      sessions: [
        row({ sessionId: "gone", title: "Gone", worktree: "fix-login", cannotResume: why }),
        row({ sessionId: "here", title: "Here" }),
        row({ sessionId: "shown", title: "Shown", followedBy: "Agent #2" }),
      ],
      indexing: 0,
    });
    const [gone, here, shown] = ["gone", "here", "shown"].map((id) => screen.getAllByTestId("session-row").find((r) => r.dataset.sessionId === id)!);
    expect(within(gone!).queryByTestId("session-resume")).not.toBeInTheDocument();
    expect(within(gone!).getByTestId("session-cannot-resume")).toHaveTextContent("Worktree gone");
    expect(within(gone!).getByTestId("session-cannot-resume")).toHaveAttribute("title", `Cannot resume: ${why}`);
    expect(within(here!).getByTestId("session-resume")).toHaveTextContent("Resume");
    expect(within(shown!).getByTestId("session-resume")).toHaveTextContent("Show");
  });
});

describe("the Sessions tab when narrow", () => {
  it("names every figure by its column, so a narrow tab can show each session as a block without the header row", () => {
    fakeVsCode();
    render(<SessionsApp />);
    send({ type: "sessionsList", sessions: [row({ sessionId: "one", title: "One", tokens: 1_200 })], indexing: 0 });
    const cells = Array.from(screen.getByTestId("session-row").querySelectorAll("td[data-label]"), (td) => [td.getAttribute("data-label"), td.textContent]);
    expect(cells.map(([label]) => label)).toEqual(["Last active", "Started", "Turns", "Working", "Files", "Tokens", "Cost"]);
    expect(Object.fromEntries(cells)).toMatchObject({ Turns: "1", Working: "1 s", Files: "1", Tokens: "1.2k", Cost: "~$0.01" });
  });
});
