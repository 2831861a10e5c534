/**
 * Whether Arcadia's panel is in front, and bringing it back, for what VS Code itself pushes aside:
 * a terminal renamed after a reload (agent/terminalHost.ts), the Comments view VS Code opens when
 * a file first shows a comment (`comments.openView`), over the panel the comment is sent from.
 */
import type { Disposable, Event } from "../core/util";

export interface PanelPresence {
  visible(): boolean;
  /** To the front without taking the keyboard from where the user types. */
  show(): Thenable<unknown>;
  /** The panel was shown (true) or hidden (false). */
  onDidChangeVisible: Event<boolean>;
}

/**
 * Keeps the panel in front through what the user does next, when it is in front now: hidden
 * within `ms` (VS Code's Comments view opening over it), it comes back once. Later, or hidden
 * by the user afterwards, it stays where they put it.
 */
export function holdPanelInFront(panel: PanelPresence, ms = 2_000): Disposable {
  if (!panel.visible()) return { dispose: () => undefined };
  const subscription = panel.onDidChangeVisible((visible) => {
    if (visible) return;
    done();
    void panel.show();
  });
  const timer = setTimeout(done, ms);
  function done() {
    clearTimeout(timer);
    subscription.dispose();
  }
  return { dispose: done };
}

/** The panel's presence through its provider, made after the parts that need it (read at run time only). */
export function presenceOf(provider: { get(): { readonly visible: boolean; reveal(): Thenable<unknown>; onDidChangeVisible: Event<boolean> } }): PanelPresence {
  return {
    visible: () => provider.get().visible,
    show: () => provider.get().reveal(),
    onDidChangeVisible: (listener) => provider.get().onDidChangeVisible(listener),
  };
}
