/** Which project folders hold a workspace's sessions: its own, and its worktrees'. */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionFolders } from "../../../src/core/sessions/sessionFolders";
import { projectSlug } from "../../../src/core/transcript/projectDir";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

describe("a workspace's session folders", () => {
  it("are its own project folder and those of its .claude/worktrees/<name> worktrees, not another project's", async () => {
    const root = tempDir();
    const own = projectSlug("/home/dev/app");
    for (const name of [
      own,
      projectSlug("/home/dev/app/.claude/worktrees/fix-login"),
      projectSlug("/home/dev/app-two"),
      projectSlug("/home/dev/app-two/.claude/worktrees/x"),
      projectSlug("/home/dev/app/src"),
    ])
      mkdirSync(join(root, name));
    const folders = await sessionFolders(root, [join(root, own)]);
    expect(folders).toEqual([{ projectDir: join(root, own) }, { projectDir: join(root, "-home-dev-app--claude-worktrees-fix-login"), worktree: "fix-login" }]);
  });

  it("are just the workspace's own when no session was ever written", async () => {
    expect(await sessionFolders(join(tempDir(), "missing"), ["/x/-p"])).toEqual([{ projectDir: "/x/-p" }]);
  });
});
