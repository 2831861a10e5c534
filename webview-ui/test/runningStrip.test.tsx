/** The running row's Cancel / Complete / Stop are pinned under the card's sticky header, never last below the fold. */
import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { agent, liveCall, renderPanel, snapshot, tool } from "./helpers";

const header = () => screen.getByTestId("agent-card").querySelector<HTMLElement>(".agent-card-header")!;

describe("what runs now is pinned with the header", () => {
  it("with 12 agents open and 30 rows before it, the running call's Complete is in the sticky header, ahead of every row", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    const rows = Array.from({ length: 30 }, (_, i) => tool({ id: `t${i}`, label: `Reading f${i}.ts`, outcome: "done" }));
    const running = tool({ id: "t-run", name: "mcp__arcadia__execute_command", label: "Running: npm test" });
    const others = Array.from({ length: 11 }, (_, i) => agent({ index: i + 1 }));
    const busy = agent({
      index: 12,
      status: "active",
      focused: true,
      tools: [...rows, running],
      calls: [liveCall({ callId: "c1", toolUseId: "t-run", display: "npm test" })],
    });
    panel.send(snapshot([...others, busy]));
    const complete = within(header()).getByTestId("call-complete");
    expect(within(header()).getByTestId("live-call")).toHaveTextContent("execute_command: npm test");
    // Once on the card: not again on its row, which keeps saying what runs.
    expect(within(screen.getByTestId("agent-card")).getAllByTestId("call-complete")).toHaveLength(1);
    const firstRow = screen.getAllByTestId("tool-row")[0]!;
    expect(complete.compareDocumentPosition(firstRow) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await user.click(complete);
    expect(panel.posted.at(-1)).toEqual({ type: "completeCall", callId: "c1" });
  });

  it("a command left running after Complete keeps its Stop in the header, with its command named", () => {
    const panel = renderPanel();
    const done = tool({ id: "t1", name: "mcp__arcadia__execute_command", label: "npm run dev", outcome: "done" });
    panel.send(snapshot([agent({ tools: [done], stillRunning: [{ id: "p1", toolUseId: "t1", display: "npm run dev", startedAt: Date.now() }] })]));
    const running = within(header()).getByTestId("still-running");
    expect(running).toHaveTextContent("npm run dev");
    expect(within(running).getByTestId("command-stop")).toBeInTheDocument();
    expect(screen.getAllByTestId("still-running")).toHaveLength(1);
  });

  it("nothing running: no strip", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ tools: [tool({ id: "t1", outcome: "done" })] })]));
    expect(screen.queryByTestId("running-strip")).not.toBeInTheDocument();
  });
});

describe("the details keep room for their header", () => {
  /** A layout engine's part that jsdom lacks: the header's height, and the observer told when it changes. */
  function measuredHeaders(height: () => number): { resized: () => void; restore: () => void } {
    const observers: Array<() => void> = [];
    const saved = { observer: globalThis.ResizeObserver, rect: HTMLElement.prototype.getBoundingClientRect };
    globalThis.ResizeObserver = class {
      constructor(private readonly told: () => void) {}
      observe() {
        observers.push(() => this.told());
      }
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
    HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
      const h = this.classList.contains("agent-card-header") ? height() : 0;
      return { x: 0, y: 0, top: 0, left: 0, right: 0, bottom: h, width: 0, height: h, toJSON: () => ({}) } as DOMRect;
    };
    return {
      resized: () => act(() => observers.forEach((told) => told())),
      restore: () => {
        globalThis.ResizeObserver = saved.observer;
        HTMLElement.prototype.getBoundingClientRect = saved.rect;
      },
    };
  }

  it("with 12 agents, the details' least height is their header with its Complete: the overview gives way, not the strip", () => {
    let headerHeight = 24;
    const { resized, restore } = measuredHeaders(() => headerHeight);
    try {
      const panel = renderPanel();
      const others = Array.from({ length: 11 }, (_, i) => agent({ index: i + 1 }));
      const idle = agent({ index: 12, focused: true });
      panel.send(snapshot([...others, idle]));
      const details = screen.getByTestId("agent-detail");
      expect(details.style.minHeight).toBe("26px");
      // Its call in flight adds a line to the header: the details keep room for it too.
      headerHeight = 52;
      const running = tool({ id: "t-run", name: "mcp__arcadia__execute_command", label: "Running: npm test" });
      panel.send(
        snapshot([...others, { ...idle, status: "active", tools: [running], calls: [liveCall({ callId: "c1", toolUseId: "t-run", display: "npm test" })] }]),
      );
      expect(within(header()).getByTestId("call-complete")).toBeInTheDocument();
      resized();
      expect(screen.getByTestId("agent-detail").style.minHeight).toBe("54px");
    } finally {
      restore();
    }
  });
});
