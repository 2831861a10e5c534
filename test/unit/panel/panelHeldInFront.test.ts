/**
 * Adding a review comment with Arcadia's panel in front: VS Code opens its Comments view over the
 * panel (the first comment in a file), and the card's "Send" went out of sight. The panel comes back
 * once when it is pushed aside right after; later, or when it was not in front, it is left alone.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { Emitter } from "../../../src/core/util";
import { holdPanelInFront } from "../../../src/vscode/panelPresence";

function panel(visible: boolean) {
  const changed = new Emitter<boolean>();
  const state = { visible, shown: 0 };
  const presence = {
    visible: () => state.visible,
    show: async () => (state.shown++, (state.visible = true), changed.fire(true)),
    onDidChangeVisible: changed.event,
  };
  const hide = () => ((state.visible = false), changed.fire(false));
  return { presence, state, hide };
}

afterEach(() => void vi.useRealTimers());

describe("the panel kept in front when a comment is added", () => {
  it("comes back once when VS Code's Comments view takes its place right after", () => {
    const { presence, state, hide } = panel(true);
    holdPanelInFront(presence);
    hide();
    expect(state).toMatchObject({ visible: true, shown: 1 });
    // The user moves to another view afterwards: theirs to choose.
    hide();
    expect(state).toMatchObject({ visible: false, shown: 1 });
  });

  it("is left where the user puts it later, and not brought forward when it was not in front", () => {
    vi.useFakeTimers();
    const later = panel(true);
    holdPanelInFront(later.presence, 2_000);
    vi.advanceTimersByTime(2_001);
    later.hide();
    expect(later.state.shown).toBe(0);
    const behind = panel(false);
    holdPanelInFront(behind.presence);
    behind.hide();
    expect(behind.state.shown).toBe(0);
  });
});
