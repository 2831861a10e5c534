/** list_files: a folder's entries, optionally recursive (never into .git, node_modules or symlinks), capped. */
import { join } from "node:path";
import { z } from "zod";
import type { ToolSpec } from "../server/mcp/toolRegistrar";
import { insideWorkspace, isInside, resolveToolPath } from "./paths";
import type { ToolPorts } from "./ports";
import { ok, toolError } from "./results";
import { shownPath } from "./shownPath";

const DEFAULT_LIMIT = 500;
/** Folders a recursive listing does not go into: huge, and never what an agent is after. */
export const SKIPPED_FOLDERS = new Set([".git", "node_modules", ".hg", ".svn"]);

const shape = {
  path: z
    .string()
    .min(1, 'path is empty: leave it out (or give ".") for the workspace folder')
    .optional()
    .describe("The folder to list, absolute or relative to the workspace folder. Default: the workspace folder."),
  recursive: z.boolean().optional().describe("Also list what is inside sub-folders (not .git or node_modules). Default false."),
  limit: z
    .number()
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(5000, "limit can be at most 5000: list a sub-folder instead")
    .optional()
    .describe(`At most this many entries. Default ${DEFAULT_LIMIT}.`),
};

export function listFilesTool(ports: ToolPorts): ToolSpec<typeof shape> {
  return {
    name: "list_files",
    title: "List files",
    description:
      'Lists a folder of the workspace: entries relative to that folder, folders ending in "/" (a symlink leading out of the workspace is listed ' +
      "by its name alone). recursive: true walks sub-folders too (skipping .git and node_modules, not following symlinks). truncated: true means the " +
      "limit was reached.",
    inputSchema: shape,
    annotations: { readOnlyHint: true },
    display: (args) => `${args.path ?? "."}${args.recursive ? " (recursive)" : ""}`,
    async handler(args, context) {
      const resolved = await resolveToolPath(ports, context, args.path ?? ".", "List");
      if (!resolved.ok) return resolved.result;
      const root = resolved.path;
      const stat = await ports.files.stat(root);
      if (!stat) return toolError(`${root} does not exist.`);
      if (stat.type !== "directory") return toolError(`${root} is a file, not a folder: use read_file to read it.`);
      const limit = args.limit ?? DEFAULT_LIMIT;
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
    },
  };
}

/** A link that leads out of the listed folder and the workspace, or to nothing. */
async function leadsOut(ports: ToolPorts, path: string, root: string): Promise<boolean> {
  const real = await ports.files.realpath(path).catch(() => undefined);
  return real === undefined || (!isInside(real, root) && !(await insideWorkspace(ports.files, real)));
}
