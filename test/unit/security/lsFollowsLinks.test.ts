/**
 * Attack class: an option that makes an allow-listed program follow links out of the workspace.
 * `ls -RL` (also `-LR .`, `-R -L`) at the workspace root lists an outside tree through a
 * symlinked folder: options are not paths, so no path check sees where they lead — and every CLI
 * tool has such options. With the sandbox the command runs unasked but the outside tree is not
 * there to list; where there is no sandbox, ls with -L asks. Shown first with plain ls.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sandboxAvailable } from "../../support/sandbox";
import { type PolicyHarness, startPolicyHarness } from "./commandPolicyHarness";

let h: PolicyHarness;
afterEach(async () => h?.close());

const OUTSIDE_NAME = "outside-secret-name-5c1a.txt";
const sandboxed = process.platform === "linux" && (await sandboxAvailable("ls -L through the sandbox"));

function plant(): void {
  mkdirSync(join(h.outside, "tree", "deeper"), { recursive: true });
  writeFileSync(join(h.outside, "tree", "deeper", OUTSIDE_NAME), "x\n");
  symlinkSync(join(h.outside, "tree"), join(h.workspace, "linked"));
  mkdirSync(join(h.workspace, "src"));
  writeFileSync(join(h.workspace, "src", "a.ts"), "export {};\n");
}

function plainLs(...args: string[]): string {
  return spawnSync("ls", args, { cwd: h.workspace, encoding: "utf8" }).stdout;
}

const FORMS = ["-RL", "-LR .", "-R -L", "--dereference -R"];

describe.skipIf(!sandboxed)("ls following links, in the sandbox: runs, and the outside tree is not there", () => {
  it.each(FORMS)("ls %s", async (options) => {
    h = await startPolicyHarness();
    plant();
    expect(plainLs(...options.split(" "))).toContain(OUTSIDE_NAME);

    const { body, text } = await h.call("execute_command", { command: `ls ${options}` });
    expect(h.asked).toEqual([]);
    expect(body.sandboxed).toBe(true);
    expect(text).not.toContain(OUTSIDE_NAME);
    expect(body.output).toContain("a.ts");
  });
});

describe.skipIf(process.platform !== "linux")("ls following links, with no sandbox: asks", () => {
  it.each(FORMS)("ls %s", async (options) => {
    h = await startPolicyHarness({ sandbox: "none" });
    plant();
    const { body, text } = await h.call("execute_command", { command: `ls ${options}` });
    expect(body.status).toBe("denied");
    expect(text).not.toContain(OUTSIDE_NAME);
    expect(h.asked[0]?.reason).toMatch(/there is no sandbox .*follows symlinks/);
    expect(h.runner.started).toEqual([]);
  });

  it("control: ls -R src and ls -la run unasked without a sandbox too (read-only, paths checked)", async () => {
    h = await startPolicyHarness({ sandbox: "none" });
    plant();
    expect((await h.call("execute_command", { command: "ls -R src" })).body).toMatchObject({ status: "completed", output: "src:\na.ts\n" });
    expect((await h.call("execute_command", { command: "ls -la" })).body.status).toBe("completed");
    expect(h.asked).toEqual([]);
  });

  it("without a sandbox, npm test asks, saying why and how to get one", async () => {
    h = await startPolicyHarness({ sandbox: "none" });
    writeFileSync(join(h.workspace, "package.json"), JSON.stringify({ scripts: { test: "echo tested" } }));
    const { body } = await h.call("execute_command", { command: "npm test" });
    expect(body.status).toBe("denied");
    expect(h.asked[0]?.reason).toMatch(/there is no sandbox \(this host has none\), so only read-only commands run unasked, and `npm` is not one of them/);
  });
});
