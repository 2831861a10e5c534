/**
 * get_diagnostics: the Problems (errors, warnings…) of one file or of the whole workspace.
 * Problems quote code and name files, so they are read like the files: without a path, only files
 * inside the workspace folders (symlinks resolved); a file outside needs its path, and the user's
 * Allow, as read_file would.
 */
import { z } from "zod";
import type { ToolSpec } from "../server/mcp/toolRegistrar";
import { insideWorkspace, realpathAllowingMissing, resolveToolPath } from "./paths";
import type { Diagnostic, Severity, ToolPorts } from "./ports";
import { ok } from "./results";
import { shownPath } from "./shownPath";

const MAX_DIAGNOSTICS = 500;
const RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

const shape = {
  path: z
    .string()
    .min(1, "path is empty: leave it out for the whole workspace")
    .optional()
    .describe("One file; leave out for every file in the workspace that has problems."),
  min_severity: z
    .enum(["error", "warning", "information", "hint"], { error: 'min_severity must be one of "error", "warning", "information", "hint"' })
    .optional()
    .describe('Only problems at least this severe. Default "hint" (all).'),
};

export function getDiagnosticsTool(ports: ToolPorts): ToolSpec<typeof shape> {
  return {
    name: "get_diagnostics",
    title: "Get problems (diagnostics)",
    description:
      `The problems VS Code reports (compiler errors, lint warnings…) for one file, or for the whole workspace: path, 1-based line and ` +
      `column, severity, message, source. At most ${MAX_DIAGNOSTICS}, errors first. Language servers report files they have seen: open a file ` +
      `(open_file) to get its problems if it has none yet.`,
    inputSchema: shape,
    annotations: { readOnlyHint: true },
    display: (args) => args.path ?? "workspace",
    async handler(args, context) {
      let only: string | undefined;
      if (args.path !== undefined) {
        const resolved = await resolveToolPath(ports, context, args.path, "Read the problems of");
        if (!resolved.ok) return resolved.result;
        only = resolved.path;
      }
      const floor = RANK[args.min_severity ?? "hint"];
      const all: (Diagnostic & { path: string })[] = [];
      let outside = 0;
      for (const file of ports.diagnostics.get(only)) {
        if (only === undefined && !(await inWorkspace(ports, file.path))) {
          outside++;
          continue;
        }
        for (const d of file.diagnostics) if (RANK[d.severity] <= floor) all.push({ ...d, path: shownPath(ports, context.agentId, file.path) });
      }
      all.sort((a, b) => RANK[a.severity] - RANK[b.severity] || a.path.localeCompare(b.path) || a.line - b.line);
      const counts = { errors: 0, warnings: 0, others: 0 };
      for (const d of all) counts[d.severity === "error" ? "errors" : d.severity === "warning" ? "warnings" : "others"]++;
      const shown = all.slice(0, MAX_DIAGNOSTICS);
      return ok({
        ...counts,
        diagnostics: shown,
        ...(all.length > shown.length ? { truncated: true } : {}),
        ...(outside
          ? {
              skipped_outside_files: outside,
              skipped_outside_note:
                `${outside} file${outside === 1 ? "" : "s"} outside the workspace folders also ${outside === 1 ? "has" : "have"} ` +
                `problems, not shown here: ask for one by its path (the user is asked).`,
            }
          : {}),
      });
    },
  };
}

async function inWorkspace(ports: ToolPorts, path: string): Promise<boolean> {
  try {
    return await insideWorkspace(ports.files, await realpathAllowingMissing(ports.files, path));
  } catch {
    return false;
  }
}
