/**
 * get_diagnostics (declared in core/toolDeclarations/getDiagnostics.ts): the Problems (errors, warnings…)
 * of one file or of the whole workspace. Problems quote code and name files, so they are read like
 * the files: without a path, only files inside the workspace folders (symlinks resolved); a file
 * outside needs its path, and the user's Allow, as read_file would.
 */
import { getDiagnostics, MAX_DIAGNOSTICS } from "../toolDeclarations";
import { implement } from "./implement";
import { insideWorkspace, realpathAllowingMissing, resolveToolPath } from "./paths";
import type { Diagnostic, Severity, ToolPorts } from "./ports";
import { ok } from "./results";
import { shownPath } from "./shownPath";

const RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

export const getDiagnosticsTool = implement(getDiagnostics, (ports) => async (args, context) => {
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
});

async function inWorkspace(ports: ToolPorts, path: string): Promise<boolean> {
  try {
    return await insideWorkspace(ports.files, await realpathAllowingMissing(ports.files, path));
  } catch {
    return false;
  }
}
