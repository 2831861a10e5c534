/**
 * list_files (declared in core/toolDeclarations/listFiles.ts): a folder's entries, optionally
 * recursive (never into .git, node_modules or symlinks), capped.
 */
import { join } from "node:path";
import { DEFAULT_LIST_LIMIT, listFiles } from "../toolDeclarations";
import { implement } from "./implement";
import { insideWorkspace, isInside, resolveToolPath } from "./paths";
import type { ToolPorts } from "./ports";
import { ok, toolError } from "./results";
import { shownPath } from "./shownPath";

/** Folders a recursive listing does not go into: huge, and never what an agent is after. */
export const SKIPPED_FOLDERS = new Set([".git", "node_modules", ".hg", ".svn"]);

export const listFilesTool = implement(listFiles, (ports) => async (args, context) => {
  const resolved = await resolveToolPath(ports, context, args.path ?? ".", "List");
  if (!resolved.ok) return resolved.result;
  const root = resolved.path;
  const stat = await ports.files.stat(root);
  if (!stat) return toolError(`${root} does not exist.`);
  if (stat.type !== "directory") return toolError(`${root} is a file, not a folder: use read_file to read it.`);
  const limit = args.limit ?? DEFAULT_LIST_LIMIT;
  const entries: string[] = [];
  const queue: string[] = [""];
  let truncated = false;
  walk: while (queue.length > 0) {
    const rel = queue.shift() as string;
    let children;
    try {
      children = await ports.files.readDirectory(join(root, rel));
    } catch {
      continue; // unreadable sub-folder: list the rest
    }
    children.sort((a, b) => a.name.localeCompare(b.name));
    for (const child of children) {
      if (entries.length >= limit) {
        truncated = true;
        break walk;
      }
      const childRel = rel ? `${rel}/${child.name}` : child.name;
      // What a link leads to is said only inside: its type would tell whether a path out there exists.
      const type = child.symlink && (await leadsOut(ports, join(root, childRel), root)) ? "other" : child.type;
      entries.push(type === "directory" ? `${childRel}/` : childRel);
      if (args.recursive && type === "directory" && !child.symlink && !SKIPPED_FOLDERS.has(child.name)) queue.push(childRel);
    }
  }
  return ok({
    path: shownPath(ports, context.agentId, root),
    entries,
    ...(truncated ? { truncated: true, message: `Only the first ${limit} entries: list a sub-folder, or raise limit.` } : {}),
  });
});

/** A link that leads out of the listed folder and the workspace, or to nothing. */
async function leadsOut(ports: ToolPorts, path: string, root: string): Promise<boolean> {
  const real = await ports.files.realpath(path).catch(() => undefined);
  return real === undefined || (!isInside(real, root) && !(await insideWorkspace(ports.files, real)));
}
