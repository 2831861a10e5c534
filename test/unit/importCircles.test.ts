/**
 * scripts/check-import-circles.mjs (in `npm run lint`): imports that go round in a circle fail the
 * lint, between files (type imports too) and between folders (a folder and its own sub-folder
 * excepted); a tree without circles passes, so the check neither passes vacuously nor flags a
 * plain chain.
 */
import { describe, expect, it } from "vitest";
import { runCheckOnTree } from "../support/plantedTree";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();
const check = (files: Record<string, string>) => runCheckOnTree("check-import-circles.mjs", tempDir(), files);

const chain = {
  "src/core/transcript/events.ts": "export type Event = { kind: string };\n",
  "src/core/transcript/reader.ts": 'import type { Event } from "./events";\nexport const read = (): Event[] => [];\n',
  "src/core/agent/state.ts": 'import { read } from "../transcript/reader";\nexport const state = read();\n',
  // A folder and its own sub-folder may import each other (index.ts re-exports, a route uses its server's checks).
  "src/core/server/index.ts": 'export { route } from "./mcp/route";\n',
  "src/core/server/auth.ts": "export const check = 1;\n",
  "src/core/server/mcp/route.ts": 'import { check } from "../auth";\nexport const route = check;\n',
  "webview-ui/src/App.tsx": 'import type { Event } from "../../src/core/transcript/events";\nexport const App = (e: Event) => e;\n',
};

describe("scripts/check-import-circles.mjs", () => {
  it("passes a tree whose imports form no circle (a folder and its sub-folder excepted)", () => {
    const result = check(chain);
    expect(result).toMatchObject({ ok: true });
    expect(result.output).toContain("import circles: none");
  });

  it("fails on two files that import each other, even by types only, naming both", () => {
    const result = check({
      ...chain,
      "src/core/transcript/events.ts": 'import type { Reader } from "./reader";\nexport type Event = { kind: string; by?: Reader };\n',
      "src/core/transcript/reader.ts": 'import type { Event } from "./events";\nexport type Reader = () => Event[];\n',
    });
    expect(result.ok).toBe(false);
    expect(result.output).toContain("files: src/core/transcript/events.ts ⇄ src/core/transcript/reader.ts");
  });

  it("fails on two folders that import each other through different files, naming the imports", () => {
    const result = check({ ...chain, "src/core/transcript/labels.ts": 'import { state } from "../agent/state";\nexport const label = state;\n' });
    expect(result.ok).toBe(false);
    expect(result.output).toContain("folders: src/core/agent ⇄ src/core/transcript");
    expect(result.output).toContain("src/core/transcript/labels.ts → src/core/agent/state.ts");
    expect(result.output).not.toContain("files:");
  });
});
