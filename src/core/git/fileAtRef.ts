/**
 * A file as it is at a commit (the left side of Review's diffs), "" when it is not there. The ref
 * and path come from a URI anyone can open, so only a commit id or HEAD is taken, and
 * `--end-of-options` keeps the argument a revision: `git show --output=<file>` would write a file.
 */
import { runGit } from "./gitRunner";

const SAFE_REF = /^(?:HEAD|[0-9a-f]{7,64})$/;

export async function fileAtRef(cwd: unknown, ref: unknown, path: unknown): Promise<string> {
  if (typeof cwd !== "string" || typeof ref !== "string" || typeof path !== "string" || !SAFE_REF.test(ref)) return "";
  const shown = await runGit(cwd, ["show", "--end-of-options", `${ref}:${path}`]);
  return shown.code === 0 ? shown.stdout : "";
}
