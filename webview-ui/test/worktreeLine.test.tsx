import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { agent, agentLive, details, renderPanel, snapshot } from "./helpers";

describe("a worktree agent's card", () => {
  it("shows its branch, that it is isolated, and its changes; Review / Merge… / Remove… post their action and do not focus the terminal", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2 })]));
    panel.send(agentLive("agent-2", { worktree: { branch: "worktree-fix", base: "main", changes: { files: 3, added: 40, removed: 12 } } }));
    expect(within(details("agent-1")).queryByTestId("agent-worktree")).toBeNull();
    const line = within(details("agent-2")).getByTestId("agent-worktree");
    expect(line.textContent).toContain("worktree-fix");
    expect(line.textContent).toContain("isolated");
    expect(within(line).getByTestId("worktree-changes").textContent).toBe("3 files · +40 −12");
    for (const action of ["review", "merge", "remove"] as const) await user.click(within(line).getByTestId(`worktree-${action}`));
    expect(panel.posted.filter((m) => m.type !== "cardsVisible" && m.type !== "webviewReady")).toEqual([
      { type: "worktreeAction", id: "agent-2", action: "review" },
      { type: "worktreeAction", id: "agent-2", action: "merge" },
      { type: "worktreeAction", id: "agent-2", action: "remove" },
    ]);
  });

  it("says when it has no changes yet, and offers no review of nothing", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 })]));
    panel.send(agentLive("agent-1", { worktree: { branch: "worktree-a", base: "main", changes: { files: 0, added: 0, removed: 0 } } }));
    expect(screen.getByTestId("worktree-changes").textContent).toBe("no changes");
    expect(screen.getByTestId("worktree-review")).toBeDisabled();
  });

  it("the toolbar opens Claude Code in a new worktree", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([]));
    await user.click(screen.getByTestId("open-claude-worktree"));
    expect(panel.posted).toContainEqual({ type: "openClaudeInWorktree" });
  });
});

describe("an agent in the shared checkout", () => {
  it("lists the files it changed this session, with Review; a worktree agent shows its worktree line instead", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2 })]));
    panel.send(agentLive("agent-1", { sessionEdits: { files: ["src/a.ts", "README.md", "b.ts", "c.ts"], total: 4 } }));
    panel.send(agentLive("agent-2", { sessionEdits: { files: ["x.ts"], total: 1 }, worktree: { branch: "worktree-b", base: "main", changes: null } }));
    const cards = [() => details("agent-1"), () => details("agent-2")];
    expect(within(cards[0]!()).getByTestId("session-edits-text").textContent).toBe("Edited 4 files this session: src/a.ts, README.md, b.ts, …");
    expect(within(cards[1]!()).queryByTestId("session-edits")).toBeNull();
    expect(within(cards[1]!()).getByTestId("worktree-changes").textContent).toBe("counting changes…");
    await user.click(within(cards[0]!()).getByTestId("session-edits-review"));
    expect(panel.posted).toContainEqual({ type: "worktreeAction", id: "agent-1", action: "review" });
    expect(panel.posted.some((m) => m.type === "focusAgent")).toBe(false);
  });
});
