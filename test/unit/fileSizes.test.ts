/**
 * scripts/check-file-sizes.mjs (in `npm run lint`): a source file over 350 lines under src/ or
 * webview-ui/src/ fails the lint, named with its length; files at the limit, elsewhere, or not code
 * pass — so the check neither passes vacuously nor flags what it should not. A line over 160
 * characters there fails too, named by file and line, and so does an activate() over 40 lines.
 */
import { describe, expect, it } from "vitest";
import { runCheckOnTree } from "../support/plantedTree";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();

/** `n` lines of code, the last one ending with a newline unless `lastNewline` is false. */
const lines = (n: number, lastNewline = true) => Array.from({ length: n }, (_, i) => `export const x${i} = ${i};`).join("\n") + (lastNewline ? "\n" : "");

/** Runs the check on a throwaway tree holding `files`; its exit status and output. */
const checkSizes = (files: Record<string, string>) => runCheckOnTree("check-file-sizes.mjs", tempDir(), files);

describe("scripts/check-file-sizes.mjs", () => {
  const withinLimits = {
    "src/core/atLimit.ts": lines(350),
    "src/core/atLimitNoFinalNewline.ts": lines(350, false),
    "webview-ui/src/components/Card.tsx": lines(120),
    "test/unit/long.test.ts": lines(2000),
    "webview-ui/test/long.test.tsx": lines(2000),
    "webview-ui/src/styles.css": "a { color: red; }\n".repeat(900),
  };

  it("passes files of at most 350 lines, and anything outside src/ and webview-ui/src/ or not code", () => {
    const result = checkSizes(withinLimits);
    expect(result).toMatchObject({ ok: true });
    expect(result.output).toContain("none over 350 lines");
  });

  it("fails on each file over 350 lines under src/ or webview-ui/src/, listing all of them, longest first", () => {
    const result = checkSizes({
      ...withinLimits,
      "src/agents/manager.ts": lines(601),
      "src/core/engine/follower.ts": lines(351, false),
      "webview-ui/src/components/Big.tsx": lines(400),
    });
    expect(result.ok).toBe(false);
    expect(result.output).toContain(
      ["  src/agents/manager.ts: 601 lines", "  webview-ui/src/components/Big.tsx: 400 lines", "  src/core/engine/follower.ts: 351 lines"].join("\n"),
    );
    expect(result.output).not.toContain("atLimit");
    expect(result.output).not.toContain("long.test");
  });

  it("fails on a line over 160 characters under src/ or webview-ui/src/, named by file and line; 160 passes", () => {
    const at = `export const s = "${"a".repeat(160 - 'export const s = "";'.length)}";\n`;
    expect(at.length - 1).toBe(160);
    expect(checkSizes({ ...withinLimits, "src/core/wide.ts": at })).toMatchObject({ ok: true });
    const result = checkSizes({
      ...withinLimits,
      "src/core/wide.ts": `${at}export const t = "${"b".repeat(200)}";\n`,
      "test/unit/wide.test.ts": "x".repeat(300),
    });
    expect(result.ok).toBe(false);
    expect(result.output).toContain("src/core/wide.ts:2: 220 characters");
    expect(result.output).not.toContain("src/core/wide.ts:1");
    expect(result.output).not.toContain("wide.test");
  });

  it("fails when src/extension.ts's activate() is over 40 lines; 40 passes", () => {
    const activate = (bodyLines: number) =>
      `import x from "y";\n\nexport function activate(context: unknown): void {\n${"  void context;\n".repeat(bodyLines)}}\n\nexport function deactivate() {}\n`;
    expect(checkSizes({ ...withinLimits, "src/extension.ts": activate(38) })).toMatchObject({ ok: true });
    const result = checkSizes({ ...withinLimits, "src/extension.ts": activate(39) });
    expect(result.ok).toBe(false);
    expect(result.output).toContain("src/extension.ts: activate() is 41 lines (at most 40");
  });
});
