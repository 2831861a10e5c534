/**
 * scripts/check-map-paths.mjs (in `npm run lint`): a repository path named in CLAUDE.md or a page of
 * docs/ that does not exist fails the lint, named with its line; paths that exist, placeholders
 * (`<tool>`), and names that are not this repository's (`zod/mini`, `~/.claude.json`, `/clear`)
 * pass — so the map stays true for the tree without flagging what it should not. And a CLAUDE.md
 * over 20 KB fails: it is a map, loaded whole by every Claude Code session in the repository.
 */
import { describe, expect, it } from "vitest";
import { runCheckOnTree } from "../support/plantedTree";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();

/** Runs the check on a throwaway tree holding `files`; its exit status and output. */
const checkMap = (files: Record<string, string>) => runCheckOnTree("check-map-paths.mjs", tempDir(), files);

const tree = {
  "src/core/util/latch.ts": "/** A latch per key. */\n",
  "src/agents/cards/cardStore.ts": "/** The card store. */\n",
  "src/vscode/panel/cardFeed.ts": "/** The panel's feed. */\n",
  "src/core/tools/readFile.ts": "/** read_file's handler. */\n",
  "webview-ui/src/components/AgentCard.tsx": "/** One agent's details. */\n",
  "docs/decisions.md": "Decisions: see `src/agents/cards/cardStore.ts`.\n",
};

const TRUE_MAP = [
  "# Map",
  "The store (`src/agents/cards/cardStore.ts`) tells the panel (`src/vscode/panel`) through `latch.ts`.",
  "A new tool: `src/core/tools/<tool>.ts`. Not ours: `zod/mini`, `~/.claude.json`, `/clear`, `<config>/sessions/<pid>.json`, `npm run lint`.",
  "Built, not in the tree: `dist/extension.js`.",
  "",
  "| feature | src/core | src/vscode | webview-ui/src |",
  "| --- | --- | --- | --- |",
  "| cards | `util` | `panel` | `components/AgentCard.tsx` |",
  "",
].join("\n");

describe("scripts/check-map-paths.mjs", () => {
  it("passes a map whose every repository path exists, leaving placeholders and other programs' names alone", () => {
    const result = checkMap({ ...tree, "CLAUDE.md": TRUE_MAP });
    expect(result).toMatchObject({ ok: true });
    expect(result.output).toContain("map paths: ok");
  });

  it("fails on each stale path, named with its file and line: from the root, a bare file name, a placeholder's folder, a docs page", () => {
    const stale = [
      TRUE_MAP,
      "Moved: `src/agents/cardStore.ts`, gone: `gone.ts`, renamed folder: `src/core/toolz/<tool>.ts`.",
      "| feature | src/core | src/vscode | webview-ui/src |",
      "| --- | --- | --- | --- |",
      "| panel | `engine` | `panel` | `components/Gone.tsx` |",
    ].join("\n");
    const result = checkMap({ ...tree, "CLAUDE.md": stale, "docs/decisions.md": "See `src/agents/clearClaim.ts`.\n" });
    expect(result.ok).toBe(false);
    expect(result.output).toContain("CLAUDE.md:10: `src/agents/cardStore.ts`: not found");
    expect(result.output).toContain("CLAUDE.md:10: `gone.ts`: no file of that name");
    expect(result.output).toContain("CLAUDE.md:10: `src/core/toolz/<tool>.ts`: not found");
    expect(result.output).toContain("CLAUDE.md:13: `engine`: not found in src/core");
    expect(result.output).toContain("CLAUDE.md:13: `components/Gone.tsx`");
    expect(result.output).toContain("docs/decisions.md:1: `src/agents/clearClaim.ts`: not found");
    expect(result.output).not.toContain("zod/mini");
    expect(result.output).not.toContain("cardStore.ts`: not found in");
  });

  it("fails when CLAUDE.md is over 20 KB, saying its size; 20 KB passes", () => {
    const padded = (bytes: number) => TRUE_MAP + "x".repeat(bytes - Buffer.byteLength(TRUE_MAP) - 1) + "\n";
    expect(checkMap({ ...tree, "CLAUDE.md": padded(20 * 1024) })).toMatchObject({ ok: true });
    const result = checkMap({ ...tree, "CLAUDE.md": padded(20 * 1024 + 1) });
    expect(result.ok).toBe(false);
    expect(result.output).toContain("CLAUDE.md is 20481 bytes, over 20480");
  });
});
