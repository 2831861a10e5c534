// Where a rig's CLI writes things, derived the same way the CLI does.
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { projectSlug } from "./home.js";

export interface RigPaths {
  home: string;
  workspace: string;
  /** `<home>/.claude/projects/<slug>`. */
  projectDir(): string;
  /** `<home>/.claude/sessions`: one `<pid>.json` live-status file per running CLI. */
  sessionsDir(): string;
  transcriptPath(sessionId: string): string;
  subagentsDir(sessionId: string): string;
}

export function rigPaths(home: string, workspace: string): RigPaths {
  const configDir = join(home, ".claude");
  const projectDir = () => join(configDir, "projects", projectSlug(realpathSync(workspace)));
  return {
    home,
    workspace,
    projectDir,
    sessionsDir: () => join(configDir, "sessions"),
    transcriptPath: (id) => join(projectDir(), `${id}.jsonl`),
    subagentsDir: (id) => join(projectDir(), id, "subagents"),
  };
}
