/**
 * Issue 31, item 1: one command's end must never change what another running sandbox sees. A
 * missing `.claude` (or `.git`, `.vscode`) is covered by an empty read-only stand-in while a
 * command runs; a second command started meanwhile must not take it for the user's own folder,
 * or the first command's end removes it and the kernel drops the second sandbox's mount with it:
 * the second writes the host's `.claude/settings.json` (hooks for the next CLI). The issue's
 * repro, through the real path (execute_command, `npm test` and `npm run lint`, both allow-listed):
 * against a weakened build (each launch with a record of stand-ins of its own, as before) the
 * settings file lands on the host; against Arcadia's it never does. Then two and ten commands at
 * once, ending in another order than they started, each trying the whole time to write every
 * protected name: none ever can, and every stand-in is gone once the last has ended.
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BubblewrapSandbox, type CommandSandbox, StandIns, standIns } from "../../../src/core/sandbox";
import { sandboxAvailable } from "../../support/sandbox";
import { pollUntil } from "../../support/waitFor";
import { type PolicyHarness, startPolicyHarness } from "./commandPolicyHarness";

vi.setConfig({ testTimeout: 120_000 });

let h: PolicyHarness;
afterEach(async () => h?.close());

const available = process.platform === "linux" && (await sandboxAvailable("the stand-ins race"));
const settings = () => ({ mode: "unaskedCommands" as const, readablePaths: [] });

/** The build before issue 31: each launch knows only the stand-ins it made itself, and asks no other sandbox. */
const weakened: CommandSandbox = {
  settings,
  availability: () => new BubblewrapSandbox({ settings }).availability(),
  launch: (where) => new BubblewrapSandbox({ settings, standIns: new StandIns(() => new Set()) }).launch(where),
};

/** Two windows (two extension hosts): the first command's sandbox has one record, the second's another. */
function twoWindows(): CommandSandbox {
  const windows = [new BubblewrapSandbox({ settings, standIns: new StandIns() }), new BubblewrapSandbox({ settings, standIns: new StandIns() })];
  let next = 0;
  return { settings, availability: () => windows[0]!.availability(), launch: (where) => windows[next++ % 2]!.launch(where) };
}

/** `npm test` holds the stand-ins for 3 s; `npm run lint`, started 1.5 s in, keeps trying to make .claude (for 6 s at most). */
const RACE_SCRIPTS = {
  test: "sleep 3",
  lint:
    "echo lint ran > lint-ran.txt; i=0; until mkdir .claude 2>/dev/null && echo '{\"hooks\":{}}' > .claude/settings.json; " +
    'do i=$((i+1)); [ $i -gt 60 ] && exit 0; sleep 0.1; done; echo WROTE-"CLAUDE"-SETTINGS',
};

async function race(sandbox: CommandSandbox): Promise<string> {
  h = await startPolicyHarness();
  h.ports.sandbox = sandbox;
  writeFileSync(join(h.workspace, "package.json"), JSON.stringify({ scripts: RACE_SCRIPTS }));
  const first = h.call("execute_command", { command: "npm test" });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const second = await h.call("execute_command", { command: "npm run lint" });
  await first;
  expect(h.asked).toEqual([]);
  expect(second.body).toMatchObject({ sandboxed: true });
  // The control: the same script wrote the workspace, unasked.
  expect(existsSync(join(h.workspace, "lint-ran.txt"))).toBe(true);
  return second.body.output as string;
}

describe.skipIf(!available)("a stand-in shared by two running commands", () => {
  it("weakened (each launch its own record): the first command's end lets the second write .claude — the test can fail", async () => {
    const output = await race(weakened);
    expect(output).toContain("WROTE-CLAUDE-SETTINGS");
    expect(existsSync(join(h.workspace, ".claude", "settings.json"))).toBe(true);
  });

  it("Arcadia's: held until the last sandbox that bound it has exited; nothing is written, nothing is left", async () => {
    const output = await race(new BubblewrapSandbox({ settings }));
    expect(output).not.toContain("WROTE-CLAUDE-SETTINGS");
    // Removed just after the end was told (standIns.ts): once that is done, nothing is left.
    await standIns.settled();
    expect(existsSync(join(h.workspace, ".claude"))).toBe(false);
    expect(standIns.size).toBe(0);
  });

  it("two windows, each with its own record: the first keeps its stand-in while the other window's sandbox has a mount on it", async () => {
    const output = await race(twoWindows());
    expect(output).not.toContain("WROTE-CLAUDE-SETTINGS");
    expect(existsSync(join(h.workspace, ".claude", "settings.json"))).toBe(false);
    // Removed once that sandbox has gone too (looked at again every second).
    await pollUntil(() => !existsSync(join(h.workspace, ".claude")), "the stand-in removed", 10_000);
  });
});

/**
 * Command i (of n) starts i × 150 ms after the first and runs (n − i) × 300 ms, so the last one
 * started ends first; all the while it tries to make and write each protected name.
 */
function attempts(seconds: number): string {
  return [
    `end=$(( $(date +%s%N) + ${Math.round(seconds * 1e9)} ))`,
    'while [ "$(date +%s%N)" -lt "$end" ]; do',
    "  for name in .git .claude .vscode; do",
    '    (mkdir -p "$name" && echo x > "$name/planted") 2>/dev/null && echo "WROTE-$name"',
    "  done",
    "  sleep 0.05",
    "done",
    'echo control > "control-$$" && echo CONTROL-RAN',
  ].join("\n");
}

describe.skipIf(!available)("many commands at once", () => {
  it.each([2, 10])("%i concurrent sandboxed commands, ending in reverse order: no protected name ever writable", async (n) => {
    h = await startPolicyHarness();
    h.ports.sandbox = new BubblewrapSandbox({ settings });
    // Nothing asks (arcadia.mcp.commandApproval "never"): every command runs in the sandbox as written.
    h.ports.commandApproval = () => ({ mode: "never", allowed: [] });
    const calls = [];
    for (let i = 0; i < n; i++) {
      writeFileSync(join(h.workspace, `attempt-${i}.sh`), attempts(0.5 + (n - i) * 0.3));
      calls.push(h.call("execute_command", { command: `sh attempt-${i}.sh` }));
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    const results = await Promise.all(calls);
    for (const { body } of results) {
      expect(body).toMatchObject({ status: "completed", sandboxed: true });
      expect(body.output).toContain("CONTROL-RAN");
      expect(body.output).not.toMatch(/WROTE-/);
    }
    await standIns.settled();
    expect(readdirSync(h.workspace).filter((name) => name.startsWith("."))).toEqual([]);
    expect(standIns.size).toBe(0);
  });
});
