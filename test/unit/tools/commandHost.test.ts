/**
 * execute_command's unsandboxed commands start from the helper process (commandHost.ts), not from
 * the extension host (a fork of the host per command), and behave as before: output, exit code,
 * a start that fails said as such (Ctrl+C to the whole group: security/commandLineEditor.test.ts);
 * a helper that dies ends its commands and kills them, never leaves them running.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CommandHost } from "../../../src/core/tools/commandHost";
import { ProcessCommandRunner } from "../../../src/core/tools/processCommandRunner";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const posix = process.platform !== "win32";

function runnerWithOutput(host?: CommandHost) {
  const output = new Map<string, string>();
  const runner = new ProcessCommandRunner({ host, onOutput: (id, chunk) => output.set(id, (output.get(id) ?? "") + chunk) });
  return { runner, output };
}

/** Running (a zombie nobody has reaped yet, in a container whose init does not, is dead). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return process.platform !== "linux";
  }
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

describe.runIf(posix)("commands started from the helper process", () => {
  it("are not children of this process, and give their output and exit code as before", async () => {
    const { runner, output } = runnerWithOutput();
    const cwd = tempDir();
    const handle = await runner.start({ command: 'echo "parent $PPID"; echo in "$(pwd)" >&2; exit 3', cwd });
    expect(await handle.ended).toEqual({ kind: "exited", exitCode: 3 });
    const text = output.get(handle.id) ?? "";
    expect(text).toContain(`in ${cwd}`);
    const parent = Number(/parent (\d+)/.exec(text)?.[1]);
    expect(parent).toBeGreaterThan(0);
    expect(parent).not.toBe(process.pid);
  });

  it("a command that ends at once still ends (its close may come with its start)", async () => {
    const { runner } = runnerWithOutput();
    const ends = await Promise.all(Array.from({ length: 10 }, async () => (await runner.start({ command: "true", cwd: tempDir() })).ended));
    expect(ends).toEqual(Array.from({ length: 10 }, () => ({ kind: "exited", exitCode: 0 })));
  });

  it("a command that cannot start is said as such", async () => {
    const { runner } = runnerWithOutput();
    await expect(runner.start({ command: "true", cwd: "/no/such/folder/here" })).rejects.toThrow(/could not start/);
  });

  it("a helper that dies ends its commands and kills them", async () => {
    const host = new CommandHost();
    const { runner, output } = runnerWithOutput(host);
    const handle = await runner.start({ command: "echo $$; exec sleep 30", cwd: tempDir() });
    await until(() => /\d+/.test(output.get(handle.id) ?? ""));
    const pid = Number(/(\d+)/.exec(output.get(handle.id) ?? "")?.[1]);
    expect(isAlive(pid)).toBe(true);
    process.kill(host.helperPid!, "SIGKILL");
    expect(await handle.ended).toEqual({ kind: "exited", exitCode: 137 });
    await until(() => !isAlive(pid));
    expect(isAlive(pid)).toBe(false);
    host.dispose();
  });
});
