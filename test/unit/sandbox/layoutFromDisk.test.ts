/**
 * What a sandboxed command sees, read from planted folders: the workspace writable but for its
 * protected names (a missing .git, .claude or .vscode held by a stand-in), a Node.js installed in
 * the home folder readable (nvm's layout) while the rest of the home is an empty scratch folder,
 * secrets hidden when the home folder itself is the workspace, and a worktree agent writing only
 * its own worktree.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { layoutFromDisk, writableFolders } from "../../../src/core/sandbox";
import type { Mount } from "../../../src/core/sandbox/sandboxLayout";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

function kindAt(mounts: readonly Mount[], path: string): Mount["kind"] | undefined {
  return mounts.filter((m) => m.path === path).at(-1)?.kind;
}

describe("the sandbox's layout", () => {
  it("the workspace writable; its existing protected names read-only; missing .git/.claude/.vscode held by stand-ins", async () => {
    const root = realpathSync(tempDir());
    const ws = join(root, "ws");
    mkdirSync(join(ws, ".git"), { recursive: true });
    writeFileSync(join(ws, ".mcp.json"), "{}");
    const layout = await layoutFromDisk({ cwd: ws, writable: [ws], readable: [], home: join(root, "home"), env: { PATH: "/usr/bin:/bin" } });
    expect(kindAt(layout.mounts, ws)).toBe("writable");
    expect(kindAt(layout.mounts, join(ws, ".git"))).toBe("readOnly");
    expect(kindAt(layout.mounts, join(ws, ".mcp.json"))).toBe("readOnly");
    expect(kindAt(layout.mounts, join(ws, ".claude"))).toBe("emptyFolder");
    expect(kindAt(layout.mounts, join(ws, ".vscode"))).toBe("emptyFolder");
    expect(layout.stubs).toEqual([join(ws, ".claude"), join(ws, ".vscode")]);
    expect(kindAt(layout.mounts, "/usr")).toBe("readOnly");
    expect(kindAt(layout.mounts, "/tmp")).toBe("scratch");
    expect(kindAt(layout.mounts, join(root, "home"))).toBe("scratch");
  });

  it("a Node.js in the home folder (nvm) readable where it is installed; the PATH folder at its own place; the rest of home empty", async () => {
    const root = realpathSync(tempDir());
    const home = join(root, "home");
    const prefix = join(home, ".nvm", "versions", "node", "v20.19.0");
    mkdirSync(join(prefix, "bin"), { recursive: true });
    writeFileSync(join(prefix, "bin", "node"), "");
    mkdirSync(join(home, ".ssh"));
    symlinkSync(join(prefix, "bin"), join(home, "node-bin"));
    const ws = join(root, "ws");
    mkdirSync(ws);
    const layout = await layoutFromDisk({ cwd: ws, writable: [], readable: [ws], home, env: { PATH: `${join(home, "node-bin")}:/usr/bin` } });
    expect(kindAt(layout.mounts, home)).toBe("scratch");
    expect(kindAt(layout.mounts, prefix)).toBe("readOnly");
    expect(layout.mounts).toContainEqual({ kind: "readOnly", path: join(home, "node-bin"), source: join(prefix, "bin") });
    expect(layout.mounts.some((m) => m.path.startsWith(join(home, ".ssh")))).toBe(false);
    expect(layout.env.HOME).toBe(home);
  });

  it("a PATH entry that is the home folder (or above it) is never bound: it would bring the home back", async () => {
    const root = realpathSync(tempDir());
    const home = join(root, "home");
    mkdirSync(home);
    const layout = await layoutFromDisk({ cwd: "/", writable: [], readable: [], home, env: { PATH: `${home}:${root}:/usr/bin` } });
    expect(kindAt(layout.mounts, home)).toBe("scratch");
    expect(kindAt(layout.mounts, root)).toBeUndefined();
  });

  it("a PATH entry inside the workspace that a command turned into a link to a home folder (~/.ssh) does not bind it for the next command", async () => {
    const root = realpathSync(tempDir());
    const home = join(root, "home");
    mkdirSync(join(home, ".ssh"), { recursive: true });
    writeFileSync(join(home, ".ssh", "id_ed25519"), "secret");
    const ws = join(root, "ws");
    mkdirSync(ws);
    // What `rm -rf tools && ln -s ~/.ssh tools` in the workspace leaves, with <ws>/tools on the extension host's PATH (direnv, a devcontainer).
    symlinkSync(join(home, ".ssh"), join(ws, "tools"));
    const layout = await layoutFromDisk({ cwd: ws, writable: [ws], readable: [], home, env: { PATH: `${join(ws, "tools")}:/usr/bin` } });
    expect(layout.mounts.filter((m) => m.path.startsWith(join(home, ".ssh")) || ("source" in m && m.source?.startsWith(join(home, ".ssh"))))).toEqual([]);
    expect(kindAt(layout.mounts, home)).toBe("scratch");
  });

  it("the home folder opened as the workspace: its keys and tokens hidden all the same", async () => {
    const home = realpathSync(tempDir());
    mkdirSync(join(home, ".ssh"));
    mkdirSync(join(home, ".aws"));
    writeFileSync(join(home, ".npmrc"), "//registry/:_authToken=x");
    const layout = await layoutFromDisk({ cwd: home, writable: [home], readable: [], home, env: {} });
    expect(kindAt(layout.mounts, home)).toBe("writable");
    expect(kindAt(layout.mounts, join(home, ".ssh"))).toBe("emptyFolder");
    expect(kindAt(layout.mounts, join(home, ".aws"))).toBe("emptyFolder");
    expect(kindAt(layout.mounts, join(home, ".npmrc"))).toBe("emptyFile");
  });

  it("the environment is an allow-list: PATH and the locale pass, tokens do not", async () => {
    const root = realpathSync(tempDir());
    const layout = await layoutFromDisk({
      cwd: root,
      writable: [],
      readable: [root],
      home: "/home/u",
      env: { PATH: "/usr/bin", LANG: "de_DE.UTF-8", LC_TIME: "C", GITHUB_TOKEN: "t", ANTHROPIC_API_KEY: "k", SSH_AUTH_SOCK: "/run/s", VSCODE_IPC_HOOK: "x" },
    });
    expect(layout.env).toEqual({ PATH: "/usr/bin", LANG: "de_DE.UTF-8", LC_TIME: "C", HOME: "/home/u", TMPDIR: "/tmp" });
  });
});

describe("what an agent may write", () => {
  it("its own worktree when it works in one; every workspace folder otherwise", () => {
    expect(writableFolders(["/r", "/other"], "/r/.claude/worktrees/fix-1/src")).toEqual(["/r/.claude/worktrees/fix-1"]);
    expect(writableFolders(["/r", "/other"], "/r/src")).toEqual(["/r", "/other"]);
    expect(writableFolders(["/r"], undefined)).toEqual(["/r"]);
    expect(writableFolders(["/r"], "/r/.claude/worktrees")).toEqual(["/r"]);
  });
});
