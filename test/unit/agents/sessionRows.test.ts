/** A Sessions view row from what the index knows about a session. */
import { describe, expect, it } from "vitest";
import { sessionRow } from "../../../src/agents/sessions/sessionRows";
import { readSessionDigest } from "../../../src/core/sessions/sessionDigestReader";
import { glanceSession } from "../../../src/core/sessions/sessionGlance";
import type { SessionEntry } from "../../../src/core/sessions/sessionIndex";
import { recordedSession } from "../../support/recorded";

/** The rename-resume scenario's session (found by its scenario: ids change with each recording). */
const RENAMED_ID = recordedSession("rename-resume").id;

const FILE = recordedSession("rename-resume").path;
const context = { followedBy: (id: string) => (id === RENAMED_ID ? "Agent #2" : undefined), worktreeOf: () => "fix-login", now: Date.UTC(2026, 10, 26, 9) };

function entry(extra: Partial<SessionEntry> = {}): SessionEntry {
  return { path: FILE, projectDir: "/p", hasFolder: true, size: 1, mtimeMs: 5, ino: 1, glance: glanceSession(FILE, 200_000), ...extra };
}

describe("a session's row", () => {
  it("before its whole read: the /rename title, the first prompt beside it, no figures yet", () => {
    const row = sessionRow(entry(), context);
    expect(row).toMatchObject({
      title: "Billing fix",
      firstPrompt: "Plan the billing fix",
      turns: null,
      tokens: null,
      costUsd: null,
      followedBy: "Agent #2",
      worktree: "fix-login",
    });
    expect(row.search).toContain("plan the billing fix");
  });

  it("once read whole: turns, time, tokens and cost; every prompt searchable", async () => {
    const row = sessionRow(entry({ digest: await readSessionDigest(FILE) }), context);
    expect(row).toMatchObject({ turns: 2, tokens: 492, costUsd: expect.closeTo(0.00344, 9), filesEdited: 0, limit: null });
    expect(row.activeMs).toBeGreaterThan(0);
    expect(row.search).toContain("continue the billing fix");
  });

  it("a session with no prompt and no title says so", () => {
    const row = sessionRow(entry({ glance: { sessionId: "s" } }), { ...context, followedBy: () => undefined, worktreeOf: () => undefined });
    expect(row).toMatchObject({ title: "(no prompt)", firstPrompt: null, followedBy: null, worktree: null, lastActiveAt: 5 });
  });

  it("a session whose folder is gone offers no Resume, and says why (its worktree by name); one a card follows can still be shown", () => {
    const glance = { sessionId: "w", cwd: "/repo/.claude/worktrees/fix-login", firstPrompt: "fix it" };
    const gone = { ...context, followedBy: () => undefined, folderExists: () => false };
    expect(sessionRow(entry({ glance }), gone).cannotResume).toBe(
      "its worktree fix-login is gone (/repo/.claude/worktrees/fix-login): Claude Code finds a session by its folder. Its transcript is still readable.",
    );
    expect(sessionRow(entry({ glance }), { ...gone, worktreeOf: () => undefined }).cannotResume).toMatch(/^the folder it ran in is gone/);
    expect(sessionRow(entry({ glance }), { ...gone, folderExists: () => true }).cannotResume).toBeNull();
    expect(sessionRow(entry({ glance: { ...glance, sessionId: RENAMED_ID } }), { ...context, folderExists: () => false }).cannotResume).toBeNull();
  });
});
