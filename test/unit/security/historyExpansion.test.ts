/**
 * Attack class: history expansion. In an interactive bash, `!!`, `!-3`, `!?secret?` pull earlier
 * lines (which may hold secrets, or `;` and `>`) into the command. Commands run as `<shell> -c`
 * where history is off (commandLineEditor.test.ts shows the expansion working in a real
 * interactive bash), so such a command would run with a literal `!` — not what an agent writing
 * `!!` meant, and not what a user reading the approval may think. execute_command refuses the
 * history shapes with a message saying to write the command out, and lets the ordinary uses of
 * `!` (test negation, `!=`, find's `!`, a `!` in quotes) through unasked.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { historyExpansion } from "../../../src/core/tools/historyExpansion";
import { type Harness, startHarness } from "../tools/toolHarness";

let h: Harness;
afterEach(async () => h?.close());

const refused: [string, string][] = [
  ["echo !!", "!!"],
  ["echo !-3", "!-3"],
  ["echo got !?secret?", "!?secret?"],
  ["!ls", "!ls"],
  ["cat !$", "!$"],
  ["echo !#", "!#"],
  ["echo !^", "!^"],
  ["echo !*", "!*"],
  ["!3", "!3"],
  ['echo "x !! y"', "!!"],
  ["touch pwned!!", "!!"],
];

const allowed = [
  "[ ! -f x ]",
  "test a != b",
  "find . ! -name x",
  "echo 'hi!'",
  "echo 'a !! b'",
  'echo "done!"',
  "echo hi!",
  "echo \\!\\!",
  "echo ${!prefix}",
  "[ ! -d build ] && echo none",
];

describe("history expansion shapes", () => {
  for (const [command, form] of refused) {
    it(`refused: ${command}`, () => {
      expect(historyExpansion(command)?.form).toBe(form);
    });
  }
  for (const command of allowed) {
    it(`allowed: ${command}`, () => {
      expect(historyExpansion(command)).toBeUndefined();
    });
  }
});

describe("execute_command refuses a history expansion before asking or running", () => {
  it("says history is not available and to write the command out; nothing is asked or run", async () => {
    // Every command would run unasked: the refusal is not an approval the user could click through.
    h = await startHarness({ commandApproval: { mode: "never", allowed: [] } });
    let asked = 0;
    h.approvals.onDidChange((c) => void (c.type === "added" && asked++));
    const { isError, body } = await h.call("execute_command", { command: "touch pwned!! && echo !?token?" });
    expect(isError).toBe(true);
    expect(body).toMatchObject({ history_expansion: "!!", position: 12 });
    expect(body.message).toMatch(/was not run: it contains `!!` at character 12/);
    expect(body.message).toMatch(/non-interactively, so history is not available: write the command out in full/);
    expect(asked).toBe(0);
    expect(h.runner.started).toEqual([]);
    expect(existsSync(join(h.workspace, "pwned!!"))).toBe(false);
  });

  it("control: ordinary ! uses run", async () => {
    h = await startHarness({ commandApproval: { mode: "never", allowed: [] } });
    const { body } = await h.call("execute_command", { command: "[ ! -f missing ] && test a != b && echo 'ok!'" });
    expect(body).toMatchObject({ status: "completed", output: "ok!\n" });
  });
});
