/**
 * Safe defaults in words and dialogs: a modal question with something to lose has a harmless
 * default (Enter), and counts read "1 file", "2 files", never "1 file(s)".
 */
import { describe, expect, it } from "vitest";
import { countOf } from "../../src/core/util";
import { harmlessFirst } from "../../src/vscode/harmlessFirst";

/**
 * What Enter answers in VS Code's modal dialog (mainThreadMessageService: the close affordance
 * becomes its Cancel, put apart; the first of the other buttons is the default).
 */
function enter(items: { title: string; isCloseAffordance?: boolean }[]): string | undefined {
  return items.find((item) => !item.isCloseAffordance)?.title;
}

describe("a modal question with something to lose", () => {
  it("after Pick, Enter on the clean-up question keeps the member's worktree (was: 'Remove and lose it')", () => {
    const items = harmlessFirst("Keep", "Commit to worktree-fix-2, remove the folder", "Remove and lose it");
    expect(enter(items)).toBe("Keep");
    expect(items.map((i) => i.title)).toEqual(["Keep", "Commit to worktree-fix-2, remove the folder", "Remove and lose it"]);
  });

  it("the items as they were (the destructive one first, Keep as the close affordance) made Enter destroy: the rule the test models", () => {
    expect(enter([{ title: "Remove and lose it" }, { title: "Keep", isCloseAffordance: true }])).toBe("Remove and lose it");
  });
});

describe("counts in words", () => {
  it("one is singular, any other number plural, irregular plurals given", () => {
    expect(countOf(1, "file")).toBe("1 file");
    expect(countOf(0, "file")).toBe("0 files");
    expect(countOf(2, "uncommitted file")).toBe("2 uncommitted files");
    expect(countOf(1, "entry", "entries")).toBe("1 entry");
    expect(countOf(3, "entry", "entries")).toBe("3 entries");
  });
});
