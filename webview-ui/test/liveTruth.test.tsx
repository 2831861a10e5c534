/**
 * The panel's side of "instant and never contradicts the terminal": honest rows (denied,
 * interrupted, waits apart), calls that wait for approval, what needs you coming into view,
 * the confirmation before closing a working agent, and which cards are on screen.
 */
import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { agent, agentPart, agentLive, details, line, liveCall, prompt, renderPanel, settle, snapshot, tool } from "./helpers";

const card = details;
const row = (toolId: string, agentId = "agent-1") =>
  within(card(agentId))
    .getAllByTestId("tool-row")
    .find((r) => r.dataset.toolId === toolId)!;
const sent = (posted: { type: string }[]) => posted.filter((m) => m.type !== "webviewReady" && m.type !== "cardsVisible");

describe("rows say what happened", () => {
  it("a denied tool reads Denied, an interrupted one Interrupted, each with its own look: the words as the extension made them, said once", () => {
    const panel = renderPanel();
    panel.send(
      snapshot([
        agent({
          tools: [
            tool({ id: "t1", label: "Denied: touch demo-notes.txt", outcome: "denied" }),
            tool({ id: "t2", label: "Interrupted: npm test", outcome: "interrupted" }),
          ],
        }),
      ]),
    );
    // The whole row's text, as a screen reader gets it too: no verdict doubled by the panel.
    expect(row("t1").textContent).toBe("Denied: touch demo-notes.txt");
    expect(row("t1")).toHaveClass("tool-denied");
    expect(row("t1").querySelector(".tool-icon")).toHaveClass("codicon-circle-slash");
    expect(row("t1").querySelector(".tool-icon")).toHaveAttribute("aria-hidden", "true");
    expect(row("t2").textContent).toBe("Interrupted: npm test");
    expect(row("t2")).toHaveClass("tool-interrupted");
  });

  it("a tool whose prompt is up reads Waiting for you, with no running clock", () => {
    vi.useFakeTimers();
    const start = new Date("2025-01-01T12:00:00Z").getTime();
    vi.setSystemTime(start + 29_000);
    const panel = renderPanel();
    panel.send(snapshot([agent({ status: "needsYou", tools: [tool({ id: "t1", label: "Waiting for you: touch x", outcome: "waiting", startedAt: start })] })]));
    expect(row("t1")).toHaveTextContent("Waiting for you: touch x");
    expect(row("t1").querySelector(".tool-icon")).not.toHaveClass("pulse");
    expect(within(row("t1")).queryByTestId("tool-elapsed")).toBeNull();
  });

  it("a tool that waited for approval shows the wait apart, and its own time from when it ran", () => {
    vi.useFakeTimers();
    const start = new Date("2025-01-01T12:00:00Z").getTime();
    vi.setSystemTime(start + 40_000);
    const panel = renderPanel();
    panel.send(
      snapshot([
        agent({
          status: "active",
          tools: [
            tool({ id: "t1", label: "Running: npm test", startedAt: start, waitedMs: 12_000 }),
            tool({ id: "t2", label: "ls", outcome: "done", startedAt: start, endedAt: start + 30_000, waitedMs: 25_000 }),
          ],
        }),
      ]),
    );
    expect(within(row("t1")).getByTestId("tool-waited")).toHaveTextContent("waited 12s");
    expect(within(row("t1")).getByTestId("tool-elapsed")).toHaveTextContent("28s");
    expect(within(row("t2")).getByTestId("tool-elapsed")).toHaveTextContent("5s");
  });
});

describe("a call waiting for its approval", () => {
  it("offers Cancel alone and no clock; once allowed, Complete and its counter from that moment", () => {
    vi.useFakeTimers();
    const start = new Date("2025-01-01T12:00:00Z").getTime();
    vi.setSystemTime(start + 9_000);
    const panel = renderPanel();
    panel.send(snapshot([agent({ status: "needsYou", needsYou: { kind: "approval" }, tools: [tool({ id: "t1", label: "Running: rm -rf build" })] })]));
    panel.send(agentLive("agent-1", { calls: [liveCall({ callId: "c1", toolUseId: "t1", startedAt: start, runningSince: null })] }));
    const live = () => within(screen.getByTestId("running-strip")).getByTestId("live-call");
    expect(within(live()).getByTestId("call-cancel")).toBeInTheDocument();
    expect(within(live()).queryByTestId("call-complete")).not.toBeInTheDocument();
    expect(within(live()).queryByTestId("call-elapsed")).not.toBeInTheDocument();
    expect(live()).toHaveTextContent("waiting for your answer");
    panel.send(agentLive("agent-1", { calls: [liveCall({ callId: "c1", toolUseId: "t1", startedAt: start, runningSince: start + 7_000 })] }));
    expect(within(live()).getByTestId("call-complete")).toBeInTheDocument();
    expect(within(live()).getByTestId("call-elapsed")).toHaveTextContent("2s");
  });
});

describe("a command its call left running after Complete", () => {
  it("the done row says it was completed early and still runs, with its time and Stop, until it exits", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const start = new Date("2025-01-01T12:00:00Z").getTime();
    vi.setSystemTime(start + 65_000);
    const panel = renderPanel();
    panel.send(
      snapshot([
        agent({
          status: "waiting",
          tools: [tool({ id: "t1", name: "mcp__arcadia__execute_command", label: "npm run dev", outcome: "done", startedAt: start, endedAt: start + 3_000 })],
        }),
      ]),
    );
    panel.send(agentLive("agent-1", { stillRunning: [{ id: "proc-1", toolUseId: "t1", display: "npm run dev", startedAt: start }] }));
    const running = within(screen.getByTestId("running-strip")).getByTestId("still-running");
    expect(running).toHaveTextContent("Completed early — still running");
    expect(within(running).getByTestId("still-running-elapsed")).toHaveTextContent("1m 05s");
    // The call itself took 3 s: that stays what the row's own time says.
    expect(within(row("t1")).getAllByTestId("tool-elapsed")[0]).toHaveTextContent("3s");
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(within(running).getByTestId("command-stop"));
    expect(sent(panel.posted)).toEqual([{ type: "stopCommand", id: "proc-1" }]);
    panel.send(agentLive("agent-1", {}));
    expect(screen.queryByTestId("still-running")).not.toBeInTheDocument();
  });
});

describe("what needs you comes into view", () => {
  let scrolled: string[];
  beforeEach(() => {
    scrolled = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push((this as HTMLElement).dataset.agentId ?? "?");
    };
  });
  afterEach(() => {
    delete (Element.prototype as Partial<Element>).scrollIntoView;
  });

  it("a new prompt of the third agent scrolls its line into view, without taking keyboard focus", () => {
    const panel = renderPanel();
    panel.send(
      snapshot([agent({ index: 1 }), agent({ index: 2 }), agent({ index: 3, status: "active", tools: [tool({ id: "t9", label: "Running: touch x" })] })]),
    );
    const focused = document.activeElement;
    scrolled = [];
    panel.send(agentLive("agent-3", { prompts: [prompt({ id: "p1", toolUseId: "t9" })] }));
    expect(scrolled).toEqual(["agent-3"]);
    expect(document.activeElement).toBe(focused);
    // The same prompt again (any update) does not scroll again.
    panel.send(agentPart(agent({ index: 3, status: "needsYou", needsYou: { kind: "permission" }, tools: [tool({ id: "t9", label: "Running: touch x" })] })));
    expect(scrolled).toEqual(["agent-3"]);
  });

  it("Go to Next Agent That Needs You (revealAgent) scrolls to its line and marks it for a moment", () => {
    vi.useFakeTimers();
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2 })]));
    scrolled = [];
    panel.send({ type: "revealAgent", id: "agent-2" });
    expect(scrolled).toEqual(["agent-2"]);
    expect(line("agent-2")).toHaveClass("revealed");
    act(() => vi.advanceTimersByTime(2_000));
    expect(line("agent-2")).not.toHaveClass("revealed");
  });
});

describe("closing an agent", () => {
  it("✕ on a working agent asks first; Keep keeps it, Close closes it; an idle one closes at once", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1, status: "active" }), agent({ index: 2, status: "waiting" })]));
    await user.click(within(card("agent-1")).getByTestId("close-agent"));
    expect(sent(panel.posted)).toEqual([]);
    const ask = within(card("agent-1")).getByTestId("close-confirm");
    expect(ask).toHaveTextContent("Close Agent #1 while it works?");
    await user.click(within(ask).getByTestId("close-confirm-keep"));
    expect(within(card("agent-1")).queryByTestId("close-confirm")).not.toBeInTheDocument();
    await user.click(within(card("agent-1")).getByTestId("close-agent"));
    await user.click(within(card("agent-1")).getByTestId("close-confirm-close"));
    expect(sent(panel.posted)).toEqual([{ type: "closeAgent", id: "agent-1" }]);
    await user.click(within(card("agent-2")).getByTestId("close-agent"));
    expect(sent(panel.posted)).toEqual([
      { type: "closeAgent", id: "agent-1" },
      { type: "closeAgent", id: "agent-2" },
    ]);
  });
});

describe("the card's own news", () => {
  it("shows claude's exit message, and that a restored card is reconnecting", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1, status: "exited", exitMessage: "error: unknown option '--modle'" }), agent({ index: 2, reconnecting: true })]));
    expect(within(card("agent-1")).getByTestId("agent-exit-message")).toHaveTextContent("error: unknown option '--modle'");
    expect(within(card("agent-1")).getByTestId("restart-agent")).toBeInTheDocument();
    expect(within(card("agent-2")).getByTestId("agent-reconnecting")).toHaveTextContent("Reconnecting…");
  });

  it("tells the extension which cards are on screen (at least half visible), once the set settles", () => {
    vi.useFakeTimers();
    const observed: { callback: IntersectionObserverCallback; targets: Element[] }[] = [];
    vi.stubGlobal(
      "IntersectionObserver",
      class {
        targets: Element[] = [];
        constructor(callback: IntersectionObserverCallback) {
          observed.push({ callback, targets: this.targets });
        }
        observe(target: Element) {
          this.targets.push(target);
        }
        disconnect() {}
      },
    );
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2 })]));
    const last = observed.at(-1)!;
    act(() =>
      last.callback(
        last.targets.map((target, i) => ({ target, intersectionRatio: i === 0 ? 1 : 0.2 }) as unknown as IntersectionObserverEntry),
        {} as IntersectionObserver,
      ),
    );
    act(() => vi.advanceTimersByTime(250));
    expect(panel.posted.filter((m) => m.type === "cardsVisible").at(-1)).toEqual({ type: "cardsVisible", ids: ["agent-1"] });
    vi.unstubAllGlobals();
  });
});

describe("after a close, the pointer does not close the next agent", () => {
  it("a click on the ✕ that takes the closed agent's place closes nothing; a moment later it closes", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1, focused: true }), agent({ index: 2 })]));
    await user.click(within(card("agent-1")).getByTestId("close-agent"));
    panel.send({ type: "cardRemoved", id: "agent-1" });
    // Agent #2's details are now where Agent #1's were, its ✕ under the pointer: a second click lands on it.
    const next = within(screen.getByTestId("agent-card")).getByTestId("close-agent");
    expect(screen.getByTestId("agent-card")).toHaveAttribute("data-agent-id", "agent-2");
    await user.click(next);
    expect(sent(panel.posted)).toEqual([{ type: "closeAgent", id: "agent-1" }]);
    settle();
    await user.click(next);
    expect(sent(panel.posted)).toEqual([
      { type: "closeAgent", id: "agent-1" },
      { type: "closeAgent", id: "agent-2" },
    ]);
    vi.useRealTimers();
  });
});
