/**
 * Attack class: an allow-listed package-script command (`npm test`, `npm run build`…) run where
 * the package is not the user's. npm runs the scripts of the package.json it finds from its
 * folder; a sub-folder (a vendored or cloned package, test fixtures) can carry any `test` script,
 * and npm options (`--prefix sub`, `--script-shell=x`) pick another package or shell from the
 * root. Each attack is shown to run its marker script through the plain shell, then through
 * Arcadia's execute_command, which asks (answered Deny): the marker stays absent. Controls:
 * `npm test` at the workspace root, with script arguments after `--`, runs unasked.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decideCommandApproval, nodeCommandDisk } from "../../../src/core/tools";
import { type PolicyHarness, startPolicyHarness } from "./commandPolicyHarness";

let h: PolicyHarness;
afterEach(async () => h?.close());

const hasNpm = spawnSync("npm", ["--version"]).status === 0;
const npmEnv = { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" };

const marker = () => join(h.outside, "MARKER");

function packageJson(folder: string, scripts: Record<string, string>): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "p", version: "1.0.0", private: true, scripts }));
}

/** The user's package at the root; a hostile one in sub/ whose scripts create the marker. */
function setUp(): void {
  packageJson(h.workspace, { test: "echo root-tests", build: "echo root-build" });
  packageJson(join(h.workspace, "sub"), { test: `touch ${marker()}`, build: `touch ${marker()}` });
  writeFileSync(join(h.workspace, "sub", "shell.sh"), `#!/bin/sh\ntouch ${marker()}\n`);
  chmodSync(join(h.workspace, "sub", "shell.sh"), 0o755);
}

function attackWorksUnprotected(command: string, cwd: string): void {
  expect(existsSync(marker())).toBe(false);
  spawnSync("/bin/sh", ["-c", command], { cwd, env: npmEnv, stdio: "ignore" });
  expect(existsSync(marker()), `plain \`${command}\` runs the hostile script`).toBe(true);
  rmSync(marker());
}

async function throughArcadia(command: string, cwd?: string) {
  const { body } = await h.call("execute_command", { command, ...(cwd ? { cwd } : {}) });
  return { body, reason: h.asked.at(-1)?.reason ?? "" };
}

describe.skipIf(!hasNpm || process.platform === "win32")("package scripts run unasked only at a workspace folder's root", () => {
  it("npm test in a sub-folder with its own package.json", async () => {
    h = await startPolicyHarness();
    setUp();
    attackWorksUnprotected("npm test", join(h.workspace, "sub"));

    const { body, reason } = await throughArcadia("npm test", "sub");
    expect(body.status).toBe("denied");
    expect(h.asked[0]?.subject).toBe("npm test");
    expect(reason).toMatch(/npm runs the scripts of the package .* in its folder, and only runs unasked at a workspace folder's root/);
    expect(h.runner.started).toEqual([]);
    expect(existsSync(marker())).toBe(false);
  });

  it("npm run build in a deeper folder of that package (npm walks up to its package.json)", async () => {
    h = await startPolicyHarness();
    setUp();
    mkdirSync(join(h.workspace, "sub", "lib"));
    attackWorksUnprotected("npm run build", join(h.workspace, "sub", "lib"));
    expect((await throughArcadia("npm run build", "sub/lib")).body.status).toBe("denied");
    expect(existsSync(marker())).toBe(false);
  });

  it("npm test --prefix sub at the root: an option picks the other package", async () => {
    h = await startPolicyHarness();
    setUp();
    attackWorksUnprotected("npm test --prefix sub", h.workspace);
    const { body, reason } = await throughArcadia("npm test --prefix sub");
    expect(body.status).toBe("denied");
    expect(reason).toMatch(/option `--prefix` can choose another package/);
    expect(existsSync(marker())).toBe(false);
  });

  it("npm test --script-shell=sub/shell.sh at the root: an option picks the shell scripts run with", async () => {
    h = await startPolicyHarness();
    setUp();
    attackWorksUnprotected("npm test --script-shell=sub/shell.sh", h.workspace);
    expect((await throughArcadia("npm test --script-shell=sub/shell.sh")).body.status).toBe("denied");
    expect(existsSync(marker())).toBe(false);
  });

  it("npx in a sub-folder runs that folder's node_modules/.bin (an allow-listed npx entry included)", async () => {
    h = await startPolicyHarness();
    setUp();
    const bin = join(h.workspace, "sub", "node_modules", ".bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "tsc"), `#!/bin/sh\ntouch ${marker()}\n`);
    chmodSync(join(bin, "tsc"), 0o755);
    attackWorksUnprotected("npx --no-install tsc", join(h.workspace, "sub"));
    // The user allow-listed "npx tsc" for the root's own TypeScript.
    const settings = { mode: "unlessAllowListed" as const, allowed: ["npx tsc"] };
    const decision = await decideCommandApproval(
      { command: "npx tsc", cwd: join(h.workspace, "sub"), folders: [h.workspace], settings },
      nodeCommandDisk(h.ports.files),
    );
    expect(decision.needsApproval).toBe(true);
    const atRoot = await decideCommandApproval({ command: "npx tsc", cwd: h.workspace, folders: [h.workspace], settings }, nodeCommandDisk(h.ports.files));
    expect(atRoot.needsApproval).toBe(false);
  });
});

describe.skipIf(!hasNpm || process.platform === "win32")("controls: the root's own scripts run unasked", () => {
  it("npm test and npm run build at the root, and npm test -- <script arguments>", async () => {
    h = await startPolicyHarness();
    setUp();
    const test = await throughArcadia("npm test");
    expect(test.body).toMatchObject({ status: "completed", exit_code: 0 });
    expect(test.body.output).toContain("root-tests");
    const build = await throughArcadia("npm run build");
    expect(build.body.output).toContain("root-build");
    const withArgs = await throughArcadia("npm test -- --watch=false");
    expect(withArgs.body.output).toContain("root-tests --watch=false");
    expect(h.asked).toEqual([]);
    expect(existsSync(marker())).toBe(false);
    // Three sandboxed npm runs, each with its layout read and looked after: over 5 s on a loaded 2-core machine.
  }, 30_000);
});
