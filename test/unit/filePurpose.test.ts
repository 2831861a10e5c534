/**
 * scripts/check-file-purpose.mjs (in `npm run lint`): a source file under src/ or webview-ui/src/
 * that does not open with a comment saying what it is for fails the lint, named; files that do
 * (a block comment or `//` lines of a few words, blank lines before it allowed), tests and files
 * elsewhere pass — so CLAUDE.md can stay a map and still every file says its purpose.
 */
import { describe, expect, it } from "vitest";
import { runCheckOnTree } from "../support/plantedTree";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();

/** Runs the check on a throwaway tree holding `files`; its exit status and output. */
const checkPurpose = (files: Record<string, string>) => runCheckOnTree("check-file-purpose.mjs", tempDir(), files);

const CODE = 'import { x } from "./x";\n\nexport const y = x + 1;\n';

describe("scripts/check-file-purpose.mjs", () => {
  const withPurpose = {
    "src/core/util/block.ts": `/** Clocks the engine's timers read, so tests can move time. */\n${CODE}`,
    "src/core/util/jsdoc.ts": `/**\n * The window's one loopback server:\n * MCP and hooks on 127.0.0.1.\n */\n${CODE}`,
    "src/agents/lines.ts": `// Which agent owns a terminal, found again by its shell's pid\n// after a window reload.\n${CODE}`,
    "src/vscode/blankFirst.ts": `\n\n/* The status bar item that follows the card store only. */\n${CODE}`,
    "webview-ui/src/components/Card.tsx": `/** One agent's details below the overview. */\nexport const Card = () => null;\n`,
    "test/unit/noPurpose.test.ts": CODE,
    "webview-ui/src/noPurpose.test.tsx": CODE,
    "webview-ui/test/noPurpose.tsx": CODE,
    "scripts/noPurpose.ts": CODE,
  };

  it("passes files that open with a comment of a few words, and tests or files outside src/ and webview-ui/src/ without one", () => {
    const result = checkPurpose(withPurpose);
    expect(result).toMatchObject({ ok: true });
    expect(result.output).toContain("file purpose: ok (5 files");
  });

  it("fails on each file that opens with code, or with a comment too short to say anything, naming each one", () => {
    const result = checkPurpose({
      ...withPurpose,
      "src/core/engine/opensWithImport.ts": CODE,
      "webview-ui/src/components/LateComment.tsx": `import { x } from "./x";\n\n/** The comment comes after the imports: too late. */\nexport const y = x;\n`,
      "src/agents/tooShort.ts": `// helpers\n${CODE}`,
      "src/shared/markerOnly.ts": `// @ts-nocheck\n${CODE}`,
      "src/vscode/empty.ts": "",
    });
    expect(result.ok).toBe(false);
    expect(result.output).toContain(
      [
        "  src/agents/tooShort.ts",
        "  src/core/engine/opensWithImport.ts",
        "  src/shared/markerOnly.ts",
        "  src/vscode/empty.ts",
        "  webview-ui/src/components/LateComment.tsx",
      ].join("\n"),
    );
    expect(result.output).not.toContain("block.ts");
    expect(result.output).not.toContain("noPurpose");
  });

  it("fails on an unclosed block comment rather than reading the whole file as its purpose", () => {
    const result = checkPurpose({ ...withPurpose, "src/core/unclosed.ts": `/** What this file is for, never closed\n${CODE}` });
    expect(result.ok).toBe(false);
    expect(result.output).toContain("  src/core/unclosed.ts");
  });
});
