/**
 * Where a command runs and whether it asks, for each setting and sandbox state, on a real
 * workspace folder (the plan reads the disk).
 */
import { realpathSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { SandboxAvailability, SandboxMode } from "../../../src/core/sandbox";
import type { CommandApprovalSettings } from "../../../src/core/tools/commandApproval";
import { nodeCommandDisk } from "../../../src/core/tools/commandDisk";
import { notReadOnly, planCommand } from "../../../src/core/tools/commandPlan";
import { nodeWorkspaceFiles } from "../../../src/core/tools/nodeWorkspaceFiles";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const HERE: SandboxAvailability = { available: true, bwrap: "/usr/bin/bwrap" };
const MISSING: SandboxAvailability = { available: false, reason: "bubblewrap (bwrap) … is not installed", fix: "apt install bubblewrap" };
const ALLOWED: CommandApprovalSettings = { mode: "unlessAllowListed", allowed: ["ls", "cat", "npm test", "git status"] };

async function plan(
  command: string,
  opts: { mode?: SandboxMode; availability?: SandboxAvailability; settings?: CommandApprovalSettings; outside?: boolean } = {},
) {
  const ws = realpathSync(tempDir());
  writeFileSync(`${ws}/a.txt`, "a");
  return planCommand(
    {
      command,
      cwd: ws,
      folders: [ws],
      settings: opts.settings ?? ALLOWED,
      sandbox: { mode: opts.mode ?? "unaskedCommands", availability: opts.availability ?? HERE },
      outsideSandbox: opts.outside ?? false,
    },
    nodeCommandDisk(nodeWorkspaceFiles([ws])),
  );
}

describe("the plan of a command", () => {
  it("allow-listed, with a sandbox: unasked, as its checked words, sandboxed", async () => {
    expect(await plan("npm test -- --watch")).toEqual({ argv: ["npm", "test", "--", "--watch"], sandboxed: true });
    expect(await plan("cat *.txt")).toEqual({ argv: ["cat", "a.txt"], sandboxed: true });
  });

  it("not allow-listed: asks, then runs through the shell, sandboxed only with allCommands", async () => {
    expect(await plan("rm -rf build")).toEqual({ ask: "it is not on arcadia.mcp.allowedCommands", sandboxed: false });
    expect(await plan("rm -rf build", { mode: "allCommands" })).toMatchObject({ sandboxed: true });
  });

  it("no sandbox (missing, or off): read-only commands unasked and unsandboxed, others ask saying why", async () => {
    expect(await plan("cat a.txt", { availability: MISSING })).toEqual({ argv: ["cat", "a.txt"], sandboxed: false });
    expect(await plan("npm test", { availability: MISSING })).toEqual({
      ask: "there is no sandbox (bubblewrap (bwrap) … is not installed), so only read-only commands run unasked, and `npm` is not one of them (ls, pwd, cat, echo, head, tail, wc, git status, git diff, git log)",
      sandboxed: false,
    });
    expect((await plan("npm test", { mode: "off" })).ask).toMatch(/^arcadia.sandbox is "off", so only read-only/);
  });

  it("the agent's outside_sandbox always asks", async () => {
    expect(await plan("cat a.txt", { outside: true })).toEqual({ ask: "the agent asked to run it outside the sandbox", sandboxed: false });
  });

  it('commandApproval "never": the text as written, in the sandbox when there is one', async () => {
    const never: CommandApprovalSettings = { mode: "never", allowed: [] };
    expect(await plan("echo a | wc -c", { settings: never })).toEqual({ sandboxed: true });
    expect(await plan("echo a | wc -c", { settings: never, availability: MISSING })).toEqual({ sandboxed: false });
  });
});

describe("read-only without a sandbox", () => {
  it("the short list, and ls only without the options that follow links", () => {
    expect(notReadOnly(["/usr/bin/cat", "a"])).toBeUndefined();
    expect(notReadOnly(["git", "log", "--oneline"])).toBeUndefined();
    expect(notReadOnly(["git", "commit"])).toMatch(/`git` is not one of them/);
    expect(notReadOnly(["ls", "-la", "src"])).toBeUndefined();
    for (const option of ["-L", "-RL", "-lL", "--dereference", "--deref"]) expect(notReadOnly(["ls", option]), option).toMatch(/follows symlinks/);
    expect(notReadOnly(["ls", "--", "-L"])).toBeUndefined();
  });
});
