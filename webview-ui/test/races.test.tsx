import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { CompareMemberView, RaceCompareView, SessionRowView } from "../../src/shared/protocol";
import type { ComparePush } from "../../src/shared/protocols/compare";
import type { SessionsPush } from "../../src/shared/protocols/sessions";
import { CompareApp } from "../src/CompareApp";
import { SessionsApp } from "../src/SessionsApp";
import { agent, agentLive, fakeVsCode, renderPanel, snapshot } from "./helpers";

const send = (message: ComparePush | SessionsPush) => act(() => void window.dispatchEvent(new MessageEvent("message", { data: message })));

function member(n: number, overrides: Partial<CompareMemberView> = {}): CompareMemberView {
  return {
    name: `fix-${n}`,
    number: n,
    branch: `worktree-fix-${n}`,
    model: null,
    agentId: `agent-${n}`,
    agentName: `Agent #${n}`,
    phase: "agent",
    status: "waiting",
    sessions: { turns: 1, activeMs: 3000, tokens: 12_400, costUsd: 0.42, unpricedModels: [] },
    changes: { files: [{ path: "src/App.tsx", status: "modified", added: 3, removed: 1, binary: false }], added: 3, removed: 1 },
    merge: { kind: "clean" },
    check: { state: "notRun" },
    problem: null,
    notStarted: null,
    ...overrides,
  };
}

function race(members: CompareMemberView[], overrides: Partial<RaceCompareView> = {}): RaceCompareView {
  return {
    id: "r1",
    task: "fix",
    prompt: "Fix the title",
    base: "main",
    startedAt: 0,
    picked: null,
    checkCommand: "npm test",
    budget: { spent: "race fix: $0.40 of $0.50", paused: false },
    members,
    ...overrides,
  };
}

const column = (name: string) => screen.getAllByTestId("compare-column").find((c) => c.dataset.member === name)!;

describe("a card in a race", () => {
  it("says which race on its overview line; the tag opens the race's compare tab and does not focus the terminal", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2 })]));
    panel.send(agentLive("agent-2", { race: { raceId: "r1", task: "fix-title", member: 2, of: 3, picked: false, notStarted: null } }));
    const lines = screen.getAllByTestId("agent-line");
    expect(within(lines[0]!).queryByTestId("line-race")).toBeNull();
    const tag = within(lines[1]!).getByTestId("line-race");
    expect(tag).toHaveTextContent("race: fix-title 2/3");
    await user.click(tag);
    expect(panel.posted.filter((m) => m.type !== "cardsVisible" && m.type !== "webviewReady")).toEqual([{ type: "showRace", raceId: "r1" }]);
  });

  it("one whose agent did not start says so in words under its line and offers Retry, sent once however often it is clicked", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2 })]));
    const tag = { raceId: "r1", task: "fix-title", of: 3, picked: false };
    panel.send(agentLive("agent-1", { race: { ...tag, member: 1, notStarted: null } }));
    panel.send(agentLive("agent-2", { race: { ...tag, member: 2, notStarted: "its claude was not ready in time" } }));
    expect(screen.getAllByTestId("race-not-started")).toHaveLength(1);
    const notice = screen.getByTestId("race-not-started");
    expect(notice).toHaveTextContent("did not start: its claude was not ready in time");
    expect(notice.closest("[data-agent-id]")).toHaveAttribute("data-agent-id", "agent-2");
    const retry = within(notice).getByTestId("race-retry");
    expect(retry).toHaveTextContent("Retry");
    await user.click(retry);
    await user.click(retry);
    expect(panel.posted.filter((m) => m.type === "retryRaceMember")).toEqual([{ type: "retryRaceMember", id: "agent-2" }]);
    // Nothing else was asked: the terminal was not focused.
    expect(panel.posted.filter((m) => m.type === "focusAgent")).toEqual([]);
    // Started again (a new card, or the reason gone): the notice goes.
    panel.send(agentLive("agent-2", { race: { ...tag, member: 2, notStarted: null } }));
    expect(screen.queryByTestId("race-not-started")).toBeNull();
  });

  it("the toolbar starts a race", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([]));
    await user.click(screen.getByTestId("run-on-several"));
    expect(panel.posted).toContainEqual({ type: "runOnSeveralAgents" });
  });
});

describe("a race's compare tab", () => {
  it("asks for its race, keeps its id for a reload, and shows a column per agent: figures, files with +/−, merge forecast, check", () => {
    const host = fakeVsCode();
    render(<CompareApp raceId="r1" />);
    expect(host.posted).toEqual([{ type: "compareReady", raceId: "r1", requestId: expect.any(Number) }]);
    expect(host.state()).toEqual({ raceId: "r1" });
    expect(screen.getByText("Reading the race…")).toBeInTheDocument();
    send({
      type: "compareState",
      race: race([
        member(1, { check: { state: "passed", exitCode: 0, durationMs: 3200, finishedAt: 1, stale: false } }),
        member(2, {
          merge: { kind: "conflicts", files: ["src/App.tsx", "b.ts"] },
          check: { state: "failed", exitCode: 1, durationMs: 400, finishedAt: 1, stale: true },
          model: "opus",
        }),
        member(3, { phase: "noAgent", agentId: null, agentName: null, status: null, changes: { files: [], added: 0, removed: 0 }, sessions: null }),
      ]),
    });
    expect(screen.getByTestId("compare-title")).toHaveTextContent("Race: fix");
    expect(screen.getByTestId("compare-check-command")).toHaveTextContent("npm test");
    const one = within(column("fix-1"));
    expect(one.getByTestId("compare-phase")).toHaveTextContent("Agent #1 · Idle");
    expect(one.getByTestId("compare-changes")).toHaveTextContent("1 file · +3 −1");
    expect(one.getAllByTestId("compare-file").map((f) => f.textContent)).toEqual(["Msrc/App.tsx+3 −1"]);
    expect(one.getByTestId("compare-cost")).toHaveTextContent("~$0.42");
    expect(one.getByTestId("compare-merge")).toHaveTextContent("merges cleanly into main");
    expect(one.getByTestId("compare-check")).toHaveTextContent("passed · exit 0 · 3.2 s");
    const two = within(column("fix-2"));
    expect(two.getByTestId("compare-merge")).toHaveTextContent("conflicts with main in src/App.tsx, b.ts");
    expect(two.getByTestId("compare-check")).toHaveTextContent("failed · exit 1 · 400 ms · its files changed since");
    // A stale result is not shown in its pass/fail colour (it no longer vouches for the files).
    expect(two.getByTestId("compare-check")).toHaveClass("check-stale");
    expect(one.getByTestId("compare-check")).not.toHaveClass("check-stale");
    expect(two.getByText("--model opus")).toBeInTheDocument();
    const three = within(column("fix-3"));
    expect(three.getByTestId("compare-phase")).toHaveTextContent("no agent: its card was closed");
    expect(three.getByTestId("compare-changes")).toHaveTextContent("no changes");
    expect(three.getByTestId("compare-cost")).toHaveTextContent("…");
    expect(three.getByTestId("compare-check")).toHaveTextContent("not run");
    expect(three.getByTestId("compare-review")).toBeDisabled();
    expect(three.getByTestId("compare-followup")).toBeDisabled();
  });

  it("says on its column that a member's agent did not start, with Retry that asks once for that member", async () => {
    const user = userEvent.setup();
    const host = fakeVsCode();
    render(<CompareApp raceId="r1" />);
    send({ type: "compareState", race: race([member(1), member(2, { notStarted: "its claude was not ready in time", status: "starting" })]) });
    expect(within(column("fix-1")).queryByTestId("compare-not-started")).toBeNull();
    const notice = within(column("fix-2")).getByTestId("compare-not-started");
    expect(notice).toHaveTextContent("did not start: its claude was not ready in time");
    host.posted.length = 0;
    const retry = within(notice).getByRole("button", { name: "Retry" });
    await user.dblClick(retry);
    expect(host.posted).toEqual([{ type: "compareAction", raceId: "r1", member: "fix-2", action: "retry" }]);
    expect(retry).toBeDisabled();
    // Retried and started: the notice goes. Failed again: it says so anew, its button back.
    send({ type: "compareState", race: race([member(1), member(2, { notStarted: "its claude exited before it was ready" })]) });
    expect(within(column("fix-2")).getByTestId("compare-not-started")).toHaveTextContent("its claude exited before it was ready");
    expect(within(column("fix-2")).getByRole("button", { name: "Retry" })).toBeEnabled();
  });

  it("says where Pick would refuse, in Pick's own words, not that it merges cleanly", () => {
    fakeVsCode();
    render(<CompareApp raceId="r1" />);
    const reason = "The main checkout has uncommitted changes in files the merge touches: src/App.tsx. Commit or stash them first.";
    send({ type: "compareState", race: race([member(1, { merge: { kind: "blocked", reason } }), member(2)]) });
    const refused = within(column("fix-1")).getByTestId("compare-merge");
    expect(refused).toHaveTextContent(`Pick cannot merge it into main. ${reason}`);
    expect(refused).not.toHaveTextContent("merges cleanly");
    expect(refused).toHaveClass("merge-blocked");
    expect(within(column("fix-2")).getByTestId("compare-merge")).toHaveTextContent("merges cleanly into main");
  });

  it("posts each action for its own member: review, ask, terminal, pick, again on another model, a diff between two, the check's output, Run checks", async () => {
    const user = userEvent.setup();
    const host = fakeVsCode();
    render(<CompareApp raceId="r1" />);
    send({ type: "compareState", race: race([member(1, { check: { state: "running", since: Date.now() } }), member(2)]) });
    host.posted.length = 0;
    const two = within(column("fix-2"));
    for (const id of ["compare-review", "compare-followup", "compare-focus", "compare-pick", "compare-again"]) await user.click(two.getByTestId(id));
    await user.click(two.getByTestId("compare-diff"));
    await user.click(within(column("fix-1")).getByTestId("compare-check-output"));
    await user.click(screen.getByTestId("compare-run-checks"));
    expect(host.posted).toEqual([
      { type: "compareAction", raceId: "r1", member: "fix-2", action: "review" },
      { type: "compareAction", raceId: "r1", member: "fix-2", action: "followUp" },
      { type: "compareAction", raceId: "r1", member: "fix-2", action: "focus" },
      { type: "compareAction", raceId: "r1", member: "fix-2", action: "pick" },
      { type: "compareAction", raceId: "r1", member: "fix-2", action: "again" },
      { type: "compareDiff", raceId: "r1", left: "fix-1", right: "fix-2" },
      { type: "compareAction", raceId: "r1", member: "fix-1", action: "checkOutput" },
      { type: "runChecks", raceId: "r1" },
    ]);
    expect(within(column("fix-1")).getByTestId("compare-check")).toHaveTextContent(/running… \ds/);
  });

  it("once one is picked: no other pick, the removed ones offer nothing and are no diff's other side", () => {
    fakeVsCode();
    render(<CompareApp raceId="r1" />);
    send({
      type: "compareState",
      race: race(
        [
          member(1, { phase: "picked", changes: { files: [], added: 0, removed: 0 } }),
          member(2, { phase: "removed", agentId: null, agentName: null, status: null, changes: null, merge: null }),
          member(3, { phase: "branchKept", agentId: null, agentName: null, status: null, changes: null, merge: null }),
        ],
        { picked: "fix-1" },
      ),
    });
    const one = within(column("fix-1"));
    expect(one.getByTestId("compare-phase")).toHaveTextContent("picked · Agent #1");
    expect(one.getByTestId("compare-changes")).toHaveTextContent("merged into main");
    expect(one.getByTestId("compare-pick")).toBeDisabled();
    expect(one.queryAllByTestId("compare-diff")).toEqual([]);
    const two = within(column("fix-2"));
    expect(two.getByTestId("compare-changes")).toHaveTextContent("worktree removed");
    for (const id of ["compare-review", "compare-pick", "compare-focus"]) expect(two.getByTestId(id)).toBeDisabled();
    expect(within(column("fix-3")).getByTestId("compare-phase")).toHaveTextContent("worktree removed; branch worktree-fix-3 kept");
  });

  it("says when its race is no longer known", () => {
    fakeVsCode();
    render(<CompareApp raceId="gone" />);
    send({ type: "compareState", race: null });
    expect(screen.getByText("This race is no longer known to Arcadia.")).toBeInTheDocument();
  });
});

describe("a race in the Sessions view", () => {
  const row = (sessionId: string, lastActiveAt: number, race: string | null): SessionRowView => ({
    sessionId,
    title: sessionId,
    firstPrompt: null,
    search: sessionId,
    startedAt: lastActiveAt,
    lastActiveAt,
    turns: 1,
    activeMs: 1000,
    filesEdited: 1,
    tokens: 100,
    costUsd: 0.01,
    followedBy: null,
    worktree: race ? `${race}-x` : null,
    limit: null,
    race,
  });

  it("lists a race's sessions as one group under its heading, where its newest session falls", () => {
    fakeVsCode();
    render(<SessionsApp />);
    const sessions = [row("plain-old", 1, null), row("fix-a", 5, "fix"), row("plain-new", 9, null), row("fix-b", 2, "fix")];
    send({ type: "sessionsList", indexing: 0, sessions });
    const lines = screen.getAllByRole("row").slice(1);
    expect(lines.map((tr) => (tr.dataset.testid === "session-race" ? `# ${tr.textContent?.trim()}` : tr.dataset.sessionId))).toEqual([
      "plain-new",
      "# Race: fix · 2 sessions",
      "fix-a",
      "fix-b",
      "plain-old",
    ]);
  });

  it("says what the race's agents spent against its cap, with Cap…; paused at it, says so with Raise…; both ask the extension", async () => {
    const user = userEvent.setup();
    const host = fakeVsCode();
    render(<CompareApp raceId="r1" />);
    send({ type: "compareState", race: race([member(1), member(2)]) });
    expect(screen.getByTestId("compare-budget-text")).toHaveTextContent("Budget of the race fix: $0.40 of $0.50");
    expect(screen.getByTestId("compare-cap-race")).toHaveTextContent("Cap…");
    await user.click(screen.getByTestId("compare-cap-race"));
    expect(host.posted).toContainEqual({ type: "capRace", raceId: "r1" });

    send({ type: "compareState", race: race([member(1), member(2)], { budget: { spent: "Paused at the race's budget — $0.52 of $0.50", paused: true } }) });
    expect(screen.getByTestId("compare-budget")).toHaveAttribute("role", "status");
    expect(screen.getByTestId("compare-budget-text")).toHaveTextContent("Paused at the race's budget — $0.52 of $0.50");
    expect(screen.getByTestId("compare-cap-race")).toHaveTextContent("Raise…");
  });
});
