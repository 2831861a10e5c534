/**
 * The closing line CI reads (`vitest: N passed, N failed, N skipped`) agrees with vitest's exit
 * code: each run below is a real vitest on a throwaway project that uses our reporter.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const repo = resolve(__dirname, "../..");
const reporter = join(repo, "test/support/summaryReporter.ts");
const vitestBin = join(repo, "node_modules/vitest/vitest.mjs");

const PASSING = `test("one", () => expect(1).toBe(1));\ntest("two", () => expect(2).toBe(2));\n`;

let project: string | undefined;
afterEach(() => {
  if (project) rmSync(project, { recursive: true, force: true });
  project = undefined;
});

/** Runs vitest on a project made of `files` (globals on, so test files need no import). */
function runVitest(files: Record<string, string>): { status: number | null; closing: string | undefined } {
  project = mkdtempSync(join(tmpdir(), "arcadia-reporter-"));
  writeFileSync(join(project, "vitest.config.mjs"), `export default { test: { globals: true, reporters: [${JSON.stringify(reporter)}] } };\n`);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text);
  const run = spawnSync(process.execPath, [vitestBin, "run", "--root", project], { encoding: "utf8", timeout: 60_000, env: { ...process.env, CI: "1" } });
  const closing = run.stdout.split("\n").find((line) => line.startsWith("vitest: "));
  return { status: run.status, closing };
}

describe("the summary line", () => {
  it("counts a test file that fails to load as a failure, and the run exits non-zero", () => {
    const { status, closing } = runVitest({
      "ok.test.js": PASSING,
      "broken.test.js": `throw new Error("this fixture is broken on purpose");\n`,
    });
    expect(status).not.toBe(0);
    expect(closing).toBe("vitest: 2 passed, 1 failed, 0 skipped");
  }, 60_000);

  it("counts a file with a syntax error as a failure", () => {
    const { status, closing } = runVitest({ "ok.test.js": PASSING, "syntax.test.js": `test("x", () => { expect(1).toBe(1);\n` });
    expect(status).not.toBe(0);
    expect(closing).toBe("vitest: 2 passed, 1 failed, 0 skipped");
  }, 60_000);

  it("counts a failing beforeAll once, though its tests never ran", () => {
    const { status, closing } = runVitest({
      "hook.test.js": `describe("s", () => {\n  beforeAll(() => { throw new Error("setup failed"); });\n  test("a", () => {});\n  test("b", () => {});\n});\n`,
    });
    expect(status).not.toBe(0);
    expect(closing).toMatch(/^vitest: 0 passed, [1-9]\d* failed, \d+ skipped$/);
  }, 60_000);

  it("says 0 failed when everything passes, and the run exits 0", () => {
    const { status, closing } = runVitest({ "ok.test.js": PASSING });
    expect(status).toBe(0);
    expect(closing).toBe("vitest: 2 passed, 0 failed, 0 skipped");
  }, 60_000);
});
