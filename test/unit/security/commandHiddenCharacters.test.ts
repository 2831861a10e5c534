/**
 * Attack class: a command whose text runs differently from how it reads. Control characters
 * (Ctrl-U, Ctrl-W, backspace, DEL, ESC sequences, Ctrl-R) rewrite the line in a terminal, a newline
 * carries a second command behind the approved one, bidi and zero-width characters change what is
 * shown. execute_command refuses them before anything is asked or run.
 *
 * Each attack would create the marker file `pwned` in the temp workspace if it ran (through
 * `sh -c`, as the test runner runs commands), and every approval is answered Allow: without the
 * check, each of these tests fails.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { forbiddenCommandCharacter } from "../../../src/core/tools/commandCharacters";
import { type Harness, startHarness } from "../tools/toolHarness";

let h: Harness;
afterEach(async () => h?.close());

/** "touch" and "echo" run unasked, as a user might have set them up; anything else asks (and is allowed). */
async function allowListedHarness(): Promise<{ asked: () => number }> {
  h = await startHarness({ commandApproval: { mode: "unlessAllowListed", allowed: ["touch", "echo"] } });
  h.answerApprovals("allow");
  let asked = 0;
  h.approvals.onDidChange((c) => void (c.type === "added" && asked++));
  return { asked: () => asked };
}

const attacks: { name: string; command: string; codePoint: string; position: number }[] = [
  { name: "Ctrl-U (erase the line typed so far)", command: "touch pwned \u0015echo harmless", codePoint: "U+0015", position: 13 },
  { name: "Ctrl-W (erase a word)", command: "touch pwned \u0017\u0017echo harmless", codePoint: "U+0017", position: 13 },
  { name: "DEL", command: "touch pwned \u007f\u007fecho harmless", codePoint: "U+007F", position: 13 },
  { name: "backspace", command: "touch pwned \b\b\becho harmless", codePoint: "U+0008", position: 13 },
  { name: "an ESC sequence (clear the line, cursor up)", command: "touch pwned \u001b[2K\u001b[1Aecho harmless", codePoint: "U+001B", position: 13 },
  { name: "Ctrl-R (history search)", command: "touch pwned \u0012echo", codePoint: "U+0012", position: 13 },
  { name: "a newline carrying a second command", command: "echo harmless\ntouch pwned", codePoint: "U+000A", position: 14 },
  { name: "a carriage return", command: "echo harmless\rtouch pwned", codePoint: "U+000D", position: 14 },
  { name: "U+202E right-to-left override", command: "touch pwned # \u202Eecho harmless", codePoint: "U+202E", position: 15 },
  { name: "U+2066 left-to-right isolate", command: "touch pwned # \u2066x", codePoint: "U+2066", position: 15 },
  { name: "a zero-width space", command: "touch pwned \u200B", codePoint: "U+200B", position: 13 },
  { name: "U+FEFF inside the line", command: "touch pwned \uFEFFx", codePoint: "U+FEFF", position: 13 },
  { name: "U+2028 line separator", command: "echo harmless\u2028touch pwned", codePoint: "U+2028", position: 14 },
  { name: "U+0085 next line (C1)", command: "touch pwned \u0085x", codePoint: "U+0085", position: 13 },
];

describe("execute_command refuses hidden characters before asking or running", () => {
  for (const attack of attacks) {
    it(`${attack.name}: refused with the character and its position, never asked, never run`, async () => {
      const { asked } = await allowListedHarness();
      const { isError, body } = await h.call("execute_command", { command: attack.command });
      expect(isError).toBe(true);
      expect(body.message).toContain(`(${attack.codePoint}) at character ${attack.position}`);
      expect(body.message).toMatch(/was not run/);
      expect(body.message).toMatch(/Remove it|one command per call/);
      expect(body).toMatchObject({ character: attack.codePoint, position: attack.position });
      expect(asked()).toBe(0);
      expect(h.runner.started).toEqual([]);
      expect(existsSync(join(h.workspace, "pwned"))).toBe(false);
    });
  }

  it("a command that always needs approval is refused before the approval is shown", async () => {
    h = await startHarness({ commandApproval: { mode: "always", allowed: [] } });
    h.answerApprovals("allow");
    let asked = 0;
    h.approvals.onDidChange((c) => void (c.type === "added" && asked++));
    const { isError } = await h.call("execute_command", { command: "echo fine\u202E; touch pwned" });
    expect(isError).toBe(true);
    expect(asked).toBe(0);
    expect(existsSync(join(h.workspace, "pwned"))).toBe(false);
  });

  it("the position counts characters, so an emoji before the character counts once", () => {
    expect(forbiddenCommandCharacter("echo 😀\u200D😀")).toMatchObject({ codePoint: "U+200D", position: 7 });
  });
});

describe("legitimate commands still run unasked when allow-listed", () => {
  it("a tab inside the command", async () => {
    const { asked } = await allowListedHarness();
    const { isError, body } = await h.call("execute_command", { command: "echo 'a\tb'" });
    expect(isError).toBe(false);
    expect(body.output).toBe("a\tb\n");
    expect(asked()).toBe(0);
  });

  it("unicode letters and emoji", async () => {
    const { asked } = await allowListedHarness();
    const { isError, body } = await h.call("execute_command", { command: "echo héllo wörld 日本語 Ελληνικά 😀" });
    expect(isError).toBe(false);
    expect(body.output).toBe("héllo wörld 日本語 Ελληνικά 😀\n");
    expect(asked()).toBe(0);
  });
});
