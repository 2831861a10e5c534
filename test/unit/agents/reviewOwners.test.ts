/** A new comment goes to the agent whose Review the file is in, never to another. */
import { describe, expect, it } from "vitest";
import { ReviewOwners } from "../../../src/agents/review/reviewOwners";

function owners(agents: Record<string, { worktree?: string; edited?: string[] }>) {
  return new ReviewOwners({
    agentIds: () => Object.keys(agents),
    worktreeOf: (id) => agents[id]?.worktree,
    editedFiles: (id) => agents[id]?.edited ?? [],
  });
}

describe("whose Review a file is in", () => {
  it("the Review opened last that lists the file decides, while its agent exists", () => {
    const agents: Record<string, { edited?: string[] }> = { a1: { edited: ["/repo/App.tsx"] }, a2: { edited: ["/repo/App.tsx"] } };
    const o = owners(agents);
    o.opened("a2", ["/repo/App.tsx"]);
    expect(o.ownerOf("/repo/App.tsx")).toBe("a2");
    o.opened("a1", ["/repo/App.tsx"]);
    expect(o.ownerOf("/repo/App.tsx")).toBe("a1");
    delete agents.a1;
    expect(o.ownerOf("/repo/App.tsx")).toBe("a2");
  });

  it("after a reload, with no Review opened yet: the worktree holding the file, else the agent that changed it", () => {
    const o = owners({ a1: { worktree: "/repo/.claude/worktrees/one" }, a2: { edited: ["/repo/README.md"] } });
    expect(o.ownerOf("/repo/.claude/worktrees/one/App.tsx")).toBe("a1");
    // A sibling folder sharing the prefix is not inside it.
    expect(o.ownerOf("/repo/.claude/worktrees/one-more/App.tsx")).toBeUndefined();
    expect(o.ownerOf("/repo/README.md")).toBe("a2");
    expect(o.ownerOf("/repo/other.ts")).toBeUndefined();
  });
});
