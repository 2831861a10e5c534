/**
 * Run checks keeps the compare tab in front: each member's check terminal is made without coming
 * forward, even for a user whose terminals open in the editor area (terminal.integrated.defaultLocation
 * "editor", where VS Code opens a new terminal as an editor in the active group: over the compare tab).
 * "output" on a column brings that member's terminal forward. The check itself really runs (a child
 * process through the shell); VS Code is a recorder that applies its rule for where a terminal opens.
 */
import { describe, expect, it, vi } from "vitest";
import { Emitter } from "../../../src/core/util/emitter";
import type { CommandSandbox } from "../../../src/core/sandbox";
import { useTempDirs } from "../../support/tempDir";

/** What VS Code was asked: each terminal made (its options) and each time one was shown. */
const made: { name: string; location: unknown; shown: (boolean | undefined)[] }[] = [];
const LOCATION = { Panel: 1, Editor: 2 };

vi.mock("../../../src/vscode/api", () => ({
  vscode: {
    EventEmitter: Emitter,
    ThemeIcon: class {
      constructor(readonly id: string) {}
    },
    TerminalLocation: LOCATION,
    workspace: { getConfiguration: () => ({ get: (_key: string, fallback: unknown) => fallback }), workspaceFolders: [] },
    window: {
      createTerminal: (options: { name: string; location?: unknown; pty: { open(): void } }) => {
        const entry = { name: options.name, location: options.location, shown: [] as (boolean | undefined)[] };
        made.push(entry);
        return { show: (preserveFocus?: boolean) => entry.shown.push(preserveFocus), dispose: () => undefined };
      },
    },
  },
}));

const { CheckTerminals } = await import("../../../src/vscode/checks/checkTerminals");
const tempDir = useTempDirs();
const noSandbox: CommandSandbox = {
  settings: () => ({ mode: "off", readablePaths: [] }),
  availability: () => Promise.reject(new Error("not asked")),
  launch: () => Promise.reject(new Error("not asked")),
};

/**
 * VS Code's rule for a user whose terminals open in the editor area: a terminal made without a
 * location, or for the editor area without preserveFocus, opens as an editor in the active group
 * (the compare tab's) and so hides it; shown without preserveFocus, it takes focus from it.
 */
const coversCompareTab = (t: (typeof made)[number]) =>
  t.location === undefined ||
  t.location === LOCATION.Editor ||
  (typeof t.location === "object" && t.location !== null && (t.location as { preserveFocus?: boolean }).preserveFocus !== true) ||
  t.shown.some((preserveFocus) => preserveFocus !== true);

describe("Run checks keeps the compare tab in front", () => {
  it("each member's check terminal is made where it does not cover the compare tab, and not shown; 'output' shows it", async () => {
    made.length = 0;
    const terminals = new CheckTerminals(noSandbox);
    try {
      const cwd = tempDir();
      const runs = await Promise.all(["fix-1", "fix-2", "fix-3"].map((label) => terminals.start({ command: "exit 0", cwd, label })));
      expect((await Promise.all(runs.map((r) => r.ended))).map((e) => e.exitCode)).toEqual([0, 0, 0]);
      expect(made.map((t) => t.name)).toEqual(["Arcadia: check fix-1", "Arcadia: check fix-2", "Arcadia: check fix-3"]);
      expect(made.filter(coversCompareTab).map((t) => t.name)).toEqual([]);
      // The user asks for one member's output: that terminal, and only it, comes forward.
      expect(terminals.show("fix-2")).toBe(true);
      expect(made.map((t) => t.shown)).toEqual([[], [false], []]);
    } finally {
      terminals.dispose();
    }
  });
});
