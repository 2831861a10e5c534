/**
 * The tab's name given back after a reload (its terminal came back as "bash") never switches the
 * bottom panel away from Arcadia: VS Code renames only the active terminal, and making another one
 * active shows the terminals in place of the panel (in the e2e it closed Raise…'s input box under
 * the pointer). It waits until the user goes to the terminals (the panel hidden) or shows that
 * terminal; a terminal closed meanwhile is not renamed. A rename the user asked for is at once.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

type Listener = (value?: unknown) => void;
const emitter = () => {
  const listeners = new Set<Listener>();
  return {
    event: (l: Listener) => (listeners.add(l), { dispose: () => void listeners.delete(l) }),
    fire: (value?: unknown) => [...listeners].forEach((l) => l(value)),
    get count() {
      return listeners.size;
    },
  };
};
const activeChanged = emitter();
const closed = emitter();
const panelVisibility = emitter();
const commands: string[] = [];
const shown: string[] = [];
interface FakeTerminal {
  id: string;
  name: string;
  show(preserveFocus?: boolean): void;
}
const window = { terminals: [] as FakeTerminal[], activeTerminal: undefined as FakeTerminal | undefined };
const terminal = (id: string, name: string): FakeTerminal => {
  const t: FakeTerminal = {
    id,
    name,
    show: () => {
      shown.push(t.id);
      window.activeTerminal = t;
      activeChanged.fire(t);
    },
  };
  return t;
};

vi.mock("../../../src/vscode/api", () => ({
  vscode: {
    window: {
      get terminals() {
        return window.terminals;
      },
      get activeTerminal() {
        return window.activeTerminal;
      },
      onDidChangeActiveTerminal: (l: Listener) => activeChanged.event(l),
      onDidCloseTerminal: (l: Listener) => closed.event(l),
    },
    commands: {
      executeCommand: async (command: string, args: { name: string }) => {
        commands.push(`${command} ${args.name} (active: ${window.activeTerminal?.id})`);
        window.activeTerminal!.name = args.name;
      },
    },
    env: { shell: "/bin/bash" },
  },
}));
const { VscodeTerminalHost } = await import("../../../src/vscode/agent/terminalHost");

let panelVisible = true;
const panelShows: number[] = [];
const host = () =>
  new VscodeTerminalHost({
    visible: () => panelVisible,
    show: async () => void panelShows.push(1),
    onDidChangeVisibility: (l) => panelVisibility.event(l),
  });
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("the tab's name given back after a reload", () => {
  let restored: FakeTerminal;
  let other: FakeTerminal;
  beforeEach(() => {
    restored = terminal("restored", "bash");
    other = terminal("other", "Agent #2");
    window.terminals = [restored, other];
    window.activeTerminal = other;
    panelVisible = true;
    commands.length = 0;
    shown.length = 0;
    panelShows.length = 0;
  });

  it("waits while Arcadia's panel is in front: nothing is shown or renamed; once the user goes to the terminals it is", async () => {
    const [handle] = host().all();
    const done = handle!.rename!("Agent #1", { whenSeen: true });
    await settle();
    expect(shown).toEqual([]);
    expect(commands).toEqual([]);
    panelVisible = false;
    panelVisibility.fire();
    await done;
    expect(commands).toEqual(["workbench.action.terminal.renameWithArg Agent #1 (active: restored)"]);
    // The terminal the user had in front is in front again.
    expect(shown).toEqual(["restored", "other"]);
    expect(restored.name).toBe("Agent #1");
    expect(activeChanged.count + closed.count + panelVisibility.count).toBe(0);
  });

  it("shown by the user meanwhile: renamed as it is, no other terminal made active, the panel not brought back", async () => {
    const [handle] = host().all();
    const done = handle!.rename!("Agent #1", { whenSeen: true });
    await settle();
    restored.show();
    await done;
    expect(commands).toEqual(["workbench.action.terminal.renameWithArg Agent #1 (active: restored)"]);
    expect(shown).toEqual(["restored"]);
    expect(panelShows).toEqual([]);
  });

  it("closed while waiting: never renamed, and nothing left listening", async () => {
    const [handle] = host().all();
    const done = handle!.rename!("Agent #1", { whenSeen: true });
    await settle();
    window.terminals = [other];
    closed.fire(restored);
    await done;
    expect(commands).toEqual([]);
    expect(activeChanged.count + closed.count + panelVisibility.count).toBe(0);
  });

  it("a rename the user asked for is at once, and the panel comes back after it", async () => {
    const [handle] = host().all();
    await handle!.rename!("Reviewer");
    expect(commands).toEqual(["workbench.action.terminal.renameWithArg Reviewer (active: restored)"]);
    expect(panelShows).toEqual([1]);
  });
});
