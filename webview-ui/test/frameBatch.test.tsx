/**
 * The panel at fifty agents renders once a frame: however many messages arrive between two frames,
 * they apply together, in order (the snapshot it asked for included), in one render.
 */
import { act, render, screen } from "@testing-library/react";
import { Profiler } from "react";
import { describe, expect, it } from "vitest";
import { App } from "../src/App";
import { agent, fakeVsCode, renderPanel, snapshot } from "./helpers";

const lineNames = () => screen.queryAllByTestId("line-name").map((n) => n.textContent);

describe("one render a frame", () => {
  it("fifty card messages between two frames: nothing until the frame, then every card, in one render", () => {
    fakeVsCode();
    const frames: (() => void)[] = [];
    let renders = 0;
    render(
      <Profiler id="panel" onRender={() => renders++}>
        <App frame={(callback) => frames.push(callback)} />
      </Profiler>,
    );
    const before = renders;
    act(() => {
      for (let n = 1; n <= 50; n++)
        window.dispatchEvent(new MessageEvent("message", { data: { type: "cardsChanged", changed: [agent({ index: n, status: "active" })], removed: [] } }));
    });
    expect(renders).toBe(before);
    expect(lineNames()).toEqual([]);
    act(() => {
      for (const callback of frames.splice(0)) callback();
    });
    expect(renders).toBe(before + 1);
    expect(screen.getAllByTestId("agent-line")).toHaveLength(50);
  });

  it("a frame's messages are on the page when its frame's callback returns, so that frame paints them, not the next", () => {
    fakeVsCode();
    const frames: (() => void)[] = [];
    render(<App frame={(callback) => frames.push(callback)} />);
    act(() => {
      window.dispatchEvent(new MessageEvent("message", { data: { type: "cardsChanged", changed: [agent({ index: 1, status: "active" })], removed: [] } }));
    });
    expect(lineNames()).toEqual([]);
    // The browser runs a frame's callbacks and then paints: outside act, which would render whatever was left for later.
    const scope = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const actEnvironment = scope.IS_REACT_ACT_ENVIRONMENT;
    scope.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      for (const callback of frames.splice(0)) callback();
      expect(lineNames()).toEqual(["Agent #1"]);
    } finally {
      scope.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
    }
  });

  it("messages apply in the order they came: a card removed after the snapshot stays removed", () => {
    const panel = renderPanel();
    panel.deliver(snapshot([agent({ index: 1 }), agent({ index: 2 })]));
    panel.deliver({ type: "cardsChanged", changed: [agent({ index: 2, name: "Frontend" })], removed: ["agent-1"] });
    expect(lineNames()).toEqual([]);
    panel.endFrame();
    expect(lineNames()).toEqual(["Frontend"]);
  });

  it("a malformed card among the frame's changes is left out; the others show", () => {
    const panel = renderPanel();
    panel.send({ type: "cardsChanged", changed: [agent({ index: 1 }), { id: 7 } as never, agent({ index: 3 })], removed: [9 as never] });
    expect(lineNames()).toEqual(["Agent #1", "Agent #3"]);
  });
});
