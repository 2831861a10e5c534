/**
 * Attack class: the command's bytes reach a shell's line editor or history expansion.
 *
 * execute_command used to type commands into an interactive shell. There, Ctrl-U, Ctrl-W, DEL,
 * Backspace… edit the line before Enter, so an allow-listed `echo x…` became another command, and
 * `!!` / `!-1` / `!?text?` pulled history lines back. Each attack below is first shown to WORK
 * against a real interactive bash in a pseudo-terminal (so these tests can fail), then shown to
 * do nothing through Arcadia's runner (core/tools/processCommandRunner.ts), which hands the text
 * to `<shell> -c` untouched. Markers are empty files in a temp folder; nothing else is touched.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pty from "@lydell/node-pty";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProcessCommandRunner } from "../../../src/core/tools/processCommandRunner";
import { pollUntil } from "../../support/waitFor";

let dir: string;
const runners: ProcessCommandRunner[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "arcadia-line-editor-"));
});
afterEach(() => {
  for (const r of runners.splice(0)) r.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const BASH = { file: "/bin/bash", args: (command: string) => ["-c", command] };

async function runThroughArcadia(command: string): Promise<{ output: string; exitCode: number | undefined }> {
  const runner = new ProcessCommandRunner({ shell: (c) => ({ file: BASH.file, args: BASH.args(c) }) });
  runners.push(runner);
  const handle = await runner.start({ command, cwd: dir });
  const end = await handle.ended;
  return { output: runner.partialOutput(handle.id).output, exitCode: end.kind === "exited" ? end.exitCode : undefined };
}

/** Types `lines` into an interactive bash in a pty, as sendText into a terminal did. */
async function typeIntoInteractiveBash(lines: string[], done: (screen: string) => boolean): Promise<string> {
  const shell = pty.spawn("/bin/bash", ["--norc", "--noprofile", "-i"], { cwd: dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, TERM: "xterm", PS1: "$ " }, cols: 200, rows: 40 });
  let screen = "";
  shell.onData((d) => (screen += d));
  try {
    for (const line of lines) shell.write(`${line}\r`);
    await pollUntil(() => done(screen), "the interactive shell to act", 5000);
    return screen;
  } finally {
    shell.kill();
  }
}

const marker = () => join(dir, "MARKER");

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!existsSync("/bin/bash") || process.platform === "win32")("commands never reach a line editor", () => {
  const editingKeys: Array<[string, string]> = [
    ["Ctrl-U (kill line before the cursor)", "\x15"],
    ["Ctrl-W three times (kill words)", "\x17\x17\x17"],
    // "echo allowed " is 13 characters.
    ["DEL × 13", "\x7f".repeat(13)],
    ["Backspace × 13", "\x08".repeat(13)],
  ];

  for (const [name, keys] of editingKeys) {
    it(`${name}: edits the line in an interactive shell; through Arcadia it is just text`, async () => {
      const attack = `echo allowed ${keys}touch MARKER`;

      await typeIntoInteractiveBash([attack], () => existsSync(marker()));
      expect(existsSync(marker()), "the attack works on an interactive shell").toBe(true);
      rmSync(marker());

      const { exitCode } = await runThroughArcadia(attack);
      expect(exitCode).toBe(0);
      expect(existsSync(marker())).toBe(false);
    });
  }

  it("history expansion (!!, !-1, !?text?) pulls history back in an interactive shell, never through Arcadia", async () => {
    const secret = "SECRET-9f3c";
    const screen = await typeIntoInteractiveBash([`: ${secret}`, "echo got !?SECRET?"], (shown) => /got : SECRET-9f3c/.test(shown));
    expect(screen).toMatch(/got : SECRET-9f3c/);

    await runThroughArcadia(`: ${secret}`);
    for (const expansion of ["!!", "!-1", "!?SECRET?"]) {
      const { output } = await runThroughArcadia(`echo got ${expansion}`);
      expect(output).toBe(`got ${expansion}\n`);
    }
  });

  it("a command that waits for input reads end-of-file instead of waiting forever", async () => {
    const { output, exitCode } = await runThroughArcadia('read line; echo "read:[$line] status:$?"');
    expect(output).toBe("read:[] status:1\n");
    expect(exitCode).toBe(0);
  });

  it("Ctrl+C (interrupt) ends the whole process group, and kills a command that ignores it", async () => {
    const runner = new ProcessCommandRunner({ shell: (c) => ({ file: BASH.file, args: BASH.args(c) }), interruptGraceMs: 300 });
    runners.push(runner);
    // A background child that would outlive its shell, and a shell that ignores SIGINT.
    const handle = await runner.start({ command: `trap '' INT; sleep 300 & echo "started $!"; wait`, cwd: dir });
    await pollUntil(() => /started \d+/.test(runner.partialOutput(handle.id).output), "the command to start", 5000);
    const child = Number(/started (\d+)/.exec(runner.partialOutput(handle.id).output)?.[1]);
    expect(isAlive(child)).toBe(true);
    runner.interrupt(handle.id);
    const end = await handle.ended;
    expect(end).toEqual({ kind: "exited", exitCode: 137 });
    expect(runner.isRunning(handle.id)).toBe(false);
    await pollUntil(() => !isAlive(child), "the background child to be gone too", 2000);
  });

  it("controls: legitimate commands still run, with their output and exit code", async () => {
    expect(await runThroughArcadia("echo hello && printf 'tab\\there\\n'")).toEqual({ output: "hello\ntab\there\n", exitCode: 0 });
    expect((await runThroughArcadia("echo to-stderr >&2; exit 3")).exitCode).toBe(3);
    expect((await runThroughArcadia("echo 'héllo wörld ✓'")).output).toBe("héllo wörld ✓\n");
  });
});
