// The demo workspace as a git repository from the first click: `main` with one commit, made by a
// local demo identity, so New Worktree…, Review and Merge work at once and agents can commit.
// Only the repository's own config is written (never a global one); the user's ~/.gitconfig is
// not read either, so a signing or hook setting there cannot break the demo's commits.
import { execFileSync } from "node:child_process";

/** Who the demo's commits are by: the repository's own config, so agents' commits work too. */
export const DEMO_IDENTITY = { name: "Arcadia Demo", email: "demo@arcadia.invalid" };

export function makeDemoRepository(workspace: string): void {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
  };
  const git = (...args: string[]) => execFileSync("git", args, { cwd: workspace, env, stdio: ["ignore", "pipe", "pipe"] });
  git("init", "-q", "-b", "main");
  git("config", "user.name", DEMO_IDENTITY.name);
  git("config", "user.email", DEMO_IDENTITY.email);
  git("config", "commit.gpgsign", "false");
  // `git rebase --continue` (the story's agent, in a terminal with no editor) takes the message as is.
  git("config", "core.editor", "true");
  git("add", "-A");
  git("commit", "-q", "-m", "Tiny greeter: greet each name on the command line");
}
