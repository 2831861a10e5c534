/**
 * The sandbox, for real: a prompt-injected `npm test` (allow-listed: it runs without asking) whose
 * script tries what an attacker would — read a key in the home folder, write outside the
 * workspace, reach a server over the network (here one on 127.0.0.1, Arcadia's own kind), read the
 * extension host's secrets from its environment, look at other processes, plant a program for git,
 * Claude Code or VS Code to run later. Inside bubblewrap every attempt fails. The same script run
 * outside the sandbox — approved by the user (`outside_sandbox: true`) — succeeds at each, which
 * shows the test would catch a sandbox that let them through.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BubblewrapSandbox, standIns } from "../../../src/core/sandbox";
import { sandboxAvailable } from "../../support/sandbox";
import { type PolicyHarness, startPolicyHarness } from "./commandPolicyHarness";

let h: PolicyHarness;
let server: Server | undefined;
afterEach(async () => {
  await h?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  delete process.env.ARCADIA_TEST_SECRET;
});

const available = process.platform === "linux" && (await sandboxAvailable("sandbox confinement"));
const SECRET = "SECRET-91c4-in-the-home-folder";

/** The script npm test runs: one line per attempt that worked. */
function probeScript(home: string, outside: string, port: number): string {
  return [
    `cat '${join(home, ".ssh", "id_rsa")}' >/dev/null 2>&1 && echo READ-HOME-KEY`,
    `ls -A '${home}' 2>/dev/null | grep -q ssh && echo LISTED-HOME`,
    `echo x > '${join(outside, "written")}' 2>/dev/null && echo WROTE-OUTSIDE`,
    `node -e 'require("net").connect(${port}, "127.0.0.1").on("connect", () => { console.log("NET-CONNECTED"); process.exit(0) }).on("error", () => process.exit(0))'`,
    `[ -n "$ARCADIA_TEST_SECRET" ] && echo SAW-SECRET-ENV`,
    `[ "$(ls /proc | grep -c '^[0-9]')" -gt 10 ] && echo SAW-OTHER-PROCESSES`,
    `printf '[core]\\n\\tfsmonitor = touch pwned\\n' >> .git/config 2>/dev/null && echo WROTE-GIT-CONFIG`,
    `mkdir -p .claude 2>/dev/null && echo '{"hooks":{}}' > .claude/settings.json 2>/dev/null && echo WROTE-CLAUDE-SETTINGS`,
    `mkdir -p .vscode 2>/dev/null && echo '{}' > .vscode/tasks.json 2>/dev/null && echo WROTE-VSCODE-TASKS`,
    "echo inside > made-in-workspace.txt && echo WROTE-WORKSPACE",
    "exit 0",
  ].join("\n");
}

const ATTEMPTS = [
  "READ-HOME-KEY",
  "LISTED-HOME",
  "WROTE-OUTSIDE",
  "NET-CONNECTED",
  "SAW-SECRET-ENV",
  "SAW-OTHER-PROCESSES",
  "WROTE-GIT-CONFIG",
  "WROTE-CLAUDE-SETTINGS",
  "WROTE-VSCODE-TASKS",
];

async function setUp(): Promise<void> {
  // A home folder of the test's own, with a key in it: the sandbox hides the home it is given.
  const home = join(h.root, "home");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(home, ".ssh", "id_rsa"), SECRET);
  h.ports.sandbox = new BubblewrapSandbox({
    settings: () => ({ mode: "unaskedCommands", readablePaths: [] }),
    home,
    env: { ...process.env, ARCADIA_TEST_SECRET: SECRET },
  });
  process.env.ARCADIA_TEST_SECRET = SECRET;
  server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  mkdirSync(join(h.workspace, ".git"));
  writeFileSync(join(h.workspace, ".git", "config"), "[core]\n");
  writeFileSync(join(h.workspace, "probe.sh"), probeScript(home, h.outside, port));
  writeFileSync(join(h.workspace, "package.json"), JSON.stringify({ scripts: { test: "sh probe.sh" } }));
}

describe.skipIf(!available)("an auto-allowed command inside the sandbox", () => {
  it("cannot read the home folder, write outside, reach the network, see secrets or processes, or plant what runs later", async () => {
    h = await startPolicyHarness();
    await setUp();
    const { body } = await h.call("execute_command", { command: "npm test" });
    expect(h.asked).toEqual([]);
    expect(body).toMatchObject({ status: "completed", sandboxed: true });
    expect(body.output).toContain("WROTE-WORKSPACE");
    for (const attempt of ATTEMPTS) expect(body.output, attempt).not.toContain(attempt);
    expect(existsSync(join(h.outside, "written"))).toBe(false);
    // The stand-ins for .claude and .vscode are gone again (just after the end was told); the workspace holds what the command made.
    await standIns.settled();
    expect(readdirSync(h.workspace).sort()).toEqual([".git", "made-in-workspace.txt", "package.json", "probe.sh"]);
    // One sandboxed npm run with its layout read and looked after: over 5 s when the whole suite loads 2 cores.
  }, 30_000);

  it("the same script approved outside the sandbox does each of those (the test can fail)", async () => {
    h = await startPolicyHarness();
    await setUp();
    h.answerApprovals("allow");
    const { body } = await h.call("execute_command", { command: "npm test", outside_sandbox: true });
    expect(h.asked[0]?.reason).toBe("the agent asked to run it outside the sandbox");
    expect(body.sandboxed).toBeUndefined();
    for (const attempt of ATTEMPTS.filter((a) => a !== "SAW-OTHER-PROCESSES" || readdirSync("/proc").length > 10))
      expect(body.output, attempt).toContain(attempt);
    expect(existsSync(join(h.outside, "written"))).toBe(true);
  });
});
