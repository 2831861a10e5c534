/** A worktree's Review names both sides of a modified file by the same path (the diff editor then says modified, not renamed). */
import { describe, expect, it } from "vitest";
import type { FileChange } from "../../../src/core/git";
import { reviewSides } from "../../../src/vscode/worktrees/reviewSides";

const change = (path: string, status: FileChange["status"], from?: string): FileChange => ({
  path,
  status,
  added: 1,
  removed: 1,
  binary: false,
  ...(from ? { from } : {}),
});
const tree = "/repo/.claude/worktrees/fix";

describe("a worktree Review's sides", () => {
  it("a modified file: its base side has the file's own path, so it reads modified (was '/src/app.ts' beside the file's absolute path: 'renamed')", () => {
    const [app] = reviewSides(tree, "abc123", [change("src/app.ts", "modified")]);
    expect(app).toEqual({
      file: `${tree}/src/app.ts`,
      left: { path: `${tree}/src/app.ts`, query: { cwd: tree, ref: "abc123", path: "src/app.ts" } },
      right: { file: `${tree}/src/app.ts` },
    });
  });

  it("a renamed file keeps its old path on the left; a deleted one has an empty side under its own name; an added one reads nothing at the base", () => {
    const [moved, gone, added] = reviewSides(tree, "abc123", [
      change("src/new.ts", "renamed", "src/old.ts"),
      change("src/gone.ts", "deleted"),
      change("src/added.ts", "added"),
    ]);
    expect(moved?.left.path).toBe(`${tree}/src/old.ts`);
    expect(moved?.left.query.path).toBe("src/old.ts");
    expect(moved?.right).toEqual({ file: `${tree}/src/new.ts` });
    expect(gone?.right).toEqual({ path: `${tree}/src/gone.ts`, query: { cwd: tree, ref: "", path: "src/gone.ts" } });
    expect(added?.left.query).toEqual({ cwd: tree, ref: "abc123", path: "src/added.ts" });
  });
});
