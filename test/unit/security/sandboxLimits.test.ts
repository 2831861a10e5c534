/**
 * Issue 31, item 6: a sandboxed command has limits and reaches no unix socket. A prompt-injected
 * `npm test` connects to a unix socket listening in the workspace (a language server's, a
 * daemon's: the network namespace does not cover sockets reached through the file system), and
 * runs with whatever processes, memory and in-memory /tmp it likes. Weakened (no seccomp filter,
 * no limits) it connects, and the limits are the host's; in Arcadia's sandbox the socket cannot
 * even be made, the limits are set (read back from /proc/self/limits and df), a failure that
 * says it ran out is told in words, and the control still writes the workspace unasked.
 */
import { existsSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BubblewrapSandbox, LIMITS } from "../../../src/core/sandbox";
import { sandboxAvailable } from "../../support/sandbox";
import { type PolicyHarness, startPolicyHarness } from "./commandPolicyHarness";
import { weakenedSandbox, withoutOptions } from "./support/weakenedSandbox";

vi.setConfig({ testTimeout: 60_000 });

let h: PolicyHarness;
let server: Server | undefined;
afterEach(async () => {
  await h?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

const available = process.platform === "linux" && (await sandboxAvailable("the sandbox's limits"));
const settings = () => ({ mode: "unaskedCommands" as const, readablePaths: [] });

const PROBE = [
  `node -e 'require("net").connect("agent.sock").on("connect", () => { console.log("UNIX-" + "CONNECTED"); process.exit(0) }).on("error", (e) => { console.log(e.code); process.exit(0) })'`,
  "grep -E 'Max (processes|address space)' /proc/self/limits",
  "df -k /tmp | tail -1",
  "echo inside > made-in-workspace.txt && echo CONTROL-RAN",
].join("\n");

async function probe(weakened: boolean): Promise<string> {
  h = await startPolicyHarness();
  const real = new BubblewrapSandbox({ settings });
  // The weakened build: no seccomp filter, no limits (prlimit and the tmpfs sizes cut out).
  h.ports.sandbox = weakened
    ? weakenedSandbox(
        { ...real, settings: () => real.settings(), availability: () => real.availability(), launch: async (w) => ({ ...(await real.launch(w)), prefix: [] }) },
        withoutOptions(["--seccomp", 1], ["--size", 1]),
      )
    : real;
  server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server!.listen(join(h.workspace, "agent.sock"), resolve));
  writeFileSync(join(h.workspace, "probe.sh"), PROBE);
  writeFileSync(join(h.workspace, "package.json"), JSON.stringify({ scripts: { test: "sh probe.sh" } }));
  const { body } = await h.call("execute_command", { command: "npm test" });
  expect(h.asked).toEqual([]);
  expect(body).toMatchObject({ status: "completed", sandboxed: true });
  expect(body.output).toContain("CONTROL-RAN");
  return body.output as string;
}

const tmpKiB = (output: string) => Number(/\s(\d+)\s+\d+\s+\d+\s+\d+%\s+\/tmp/.exec(output)?.[1]);

describe.skipIf(!available)("a sandboxed command's reach and limits", () => {
  it("weakened: it connects to the workspace's unix socket, with the host's limits — the test can fail", async () => {
    const output = await probe(true);
    expect(output).toContain("UNIX-CONNECTED");
    expect(output).not.toMatch(new RegExp(`Max processes\\s+${LIMITS.processes}\\s`));
    expect(tmpKiB(output)).not.toBe(LIMITS.scratchBytes / 1024);
  });

  it("Arcadia's: no unix socket, processes, memory and /tmp limited", async () => {
    const output = await probe(false);
    expect(output).not.toContain("UNIX-CONNECTED");
    expect(output).toContain("EPERM");
    expect(output).toMatch(new RegExp(`Max processes\\s+${LIMITS.processes}\\s+${LIMITS.processes}\\s`));
    expect(output).toMatch(new RegExp(`Max address space\\s+${LIMITS.memoryBytes}\\s+${LIMITS.memoryBytes}\\s`));
    expect(tmpKiB(output)).toBe(LIMITS.scratchBytes / 1024);
    expect(existsSync(join(h.workspace, "made-in-workspace.txt"))).toBe(true);
  });

  it("a command that ran out says so in words", async () => {
    h = await startPolicyHarness();
    h.ports.sandbox = new BubblewrapSandbox({ settings });
    writeFileSync(join(h.workspace, "package.json"), JSON.stringify({ scripts: { test: "echo 'write error: No space left on device'; exit 1" } }));
    const { text } = await h.call("execute_command", { command: "npm test" });
    expect(text).toContain(`the sandbox allows at most ${LIMITS.processes} processes and threads, 8 GiB of memory per process, 1 GiB in each of /tmp`);
  });
});
