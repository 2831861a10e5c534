/**
 * Issue 31, item 8: a Run check (arcadia.compare.check, e.g. `npm test`) runs the agents' code.
 * A member whose tests were prompt-injected writes the main checkout's .git/config (core.fsmonitor
 * runs at the next `git status`) and reaches a server on 127.0.0.1. Run as before (a plain
 * process: the weakened build) both work; in the check's sandbox neither does, while its own
 * worktree stays writable (the control), and with arcadia.compare.checkNetwork on the network is
 * reachable again. The terminal's line says which.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { realpathSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BubblewrapSandbox, checkSandbox, type SandboxLaunch } from "../../../src/core/sandbox";
import { ProcessCommandRunner } from "../../../src/core/tools/processCommandRunner";
import { committedRepo, git } from "../../support/gitRepo";
import { sandboxAvailable } from "../../support/sandbox";
import { useTempDirs } from "../../support/tempDir";

vi.setConfig({ testTimeout: 60_000 });

const tempDir = useTempDirs();
let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

const available = process.platform === "linux" && (await sandboxAvailable("Run checks"));
const settings = () => ({ mode: "unaskedCommands" as const, readablePaths: [] });

async function check(sandboxed: boolean, network = false): Promise<{ output: string; said?: string; main: string }> {
  const main = committedRepo(realpathSync(tempDir()));
  const worktree = join(main, ".claude", "worktrees", "m1");
  git(main, "worktree", "add", "-q", worktree);
  server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  writeFileSync(
    join(worktree, "check.sh"),
    [
      `printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' >> '${main}/.git/config' 2>/dev/null && echo WROTE-MAIN-CONFIG`,
      `node -e 'require("net").connect(${port}, "127.0.0.1").on("connect", () => { console.log("NET-" + "CONNECTED"); process.exit(0) }).on("error", () => process.exit(0))'`,
      "echo ok > check-ran.txt && echo CONTROL-RAN",
    ].join("\n"),
  );
  const confined: { launch?: SandboxLaunch; said?: string } = sandboxed
    ? await checkSandbox(new BubblewrapSandbox({ settings }), { worktree, folders: [main], network })
    : {};
  const runner = new ProcessCommandRunner();
  const handle = await runner.start({ command: "sh check.sh", cwd: worktree, ...(confined.launch ? { sandbox: confined.launch } : {}) });
  await handle.ended;
  const output = runner.partialOutput(handle.id).output;
  runner.dispose();
  return { output, said: confined.said, main };
}

describe.skipIf(!available)("a Run check", () => {
  it("run as before (no sandbox): writes the main checkout's .git/config and reaches the network — the test can fail", async () => {
    const { output, main } = await check(false);
    expect(output).toContain("WROTE-MAIN-CONFIG");
    expect(output).toContain("NET-CONNECTED");
    expect(readFileSync(join(main, ".git", "config"), "utf8")).toContain("fsmonitor");
  });

  it("in the check's sandbox: neither, its worktree still writable, and the terminal says so", async () => {
    const { output, said, main } = await check(true);
    expect(said).toBe("in the sandbox: only this worktree writable, no network, home hidden");
    expect(output).toContain("CONTROL-RAN");
    expect(output).not.toContain("WROTE-MAIN-CONFIG");
    expect(output).not.toContain("NET-CONNECTED");
    expect(readFileSync(join(main, ".git", "config"), "utf8")).not.toContain("fsmonitor");
  });

  it("with arcadia.compare.checkNetwork on: the network is there, the main checkout still read-only", async () => {
    const { output, said } = await check(true, true);
    expect(said).toBe("in the sandbox: only this worktree writable, network on (arcadia.compare.checkNetwork), home hidden");
    expect(output).toContain("NET-CONNECTED");
    expect(output).not.toContain("WROTE-MAIN-CONFIG");
  });
});
