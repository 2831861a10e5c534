/**
 * After a window reload every revived terminal is renamed back to its card's name. VS Code renames
 * only the active terminal, so each rename shows its terminal for a moment, which switches the
 * bottom panel to the terminals. A user who had Arcadia's panel in front must find it there after
 * the whole run of renames, brought back once, without the keyboard taken. Against the earlier
 * host (it asked "was the panel in front?" per rename): the second rename saw the panel hidden by
 * the first one's terminal and left the terminals in front.
 */
import { describe, expect, it, vi } from "vitest";

type Listener = (t: unknown) => void;
const listeners = new Set<Listener>();
const screen = { panelInFront: true, active: undefined as unknown };
const renamed: Array<[unknown, string]> = [];
const terminal = (name: string) => {
  const t = {
    name,
    sendText: vi.fn(),
    // Showing a terminal makes it the active one and switches the bottom panel to the terminals.
    show: vi.fn(() => {
      screen.panelInFront = false;
      setTimeout(() => {
        screen.active = t;
        for (const l of listeners) l(t);
      }, 5);
    }),
  };
  return t;
};
const terminals = [terminal("bash"), terminal("bash"), terminal("bash")];

vi.mock("../../../src/vscode/api", () => ({
  vscode: {
    window: {
      terminals,
      get activeTerminal() {
        return screen.active;
      },
      onDidChangeActiveTerminal: (l: Listener) => (listeners.add(l), { dispose: () => listeners.delete(l) }),
    },
    commands: {
      executeCommand: async (id: string, args: { name: string }) => {
        if (id === "workbench.action.terminal.renameWithArg") renamed.push([screen.active, args.name]);
      },
    },
    env: { shell: "/bin/bash" },
  },
}));

const { VscodeTerminalHost } = await import("../../../src/vscode/agent/terminalHost");

describe("renaming the revived terminals after a reload", () => {
  it("renames each one, and leaves the panel in front as it was, brought back once", async () => {
    screen.active = terminals[2];
    // As VS Code's: the command resolves before the view is in front again.
    const show = vi.fn(async () => void setTimeout(() => (screen.panelInFront = true), 10));
    const host = new VscodeTerminalHost({ visible: () => screen.panelInFront, show }, () => undefined);
    const [first, second] = host.all();
    await Promise.all([first!.rename!("Agent #1"), second!.rename!("Reviewer")]);

    expect(renamed).toEqual([
      [terminals[0], "Agent #1"],
      [terminals[1], "Reviewer"],
    ]);
    // The terminal the user had active is active again, and the panel is in front: it stays there.
    await vi.waitFor(() => expect(screen.active).toBe(terminals[2]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.panelInFront).toBe(true);
    expect(show).toHaveBeenCalledTimes(1);
  });

  it("leaves the terminals in front when they were (the panel is not pulled up)", async () => {
    renamed.length = 0;
    screen.panelInFront = false;
    screen.active = terminals[2];
    const show = vi.fn(async () => undefined);
    const host = new VscodeTerminalHost({ visible: () => screen.panelInFront, show }, () => undefined);
    await host.all()[0]!.rename!("Agent #1");
    expect(renamed).toEqual([[terminals[0], "Agent #1"]]);
    expect(show).not.toHaveBeenCalled();
  });
});
