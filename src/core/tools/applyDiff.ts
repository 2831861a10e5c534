/** apply_diff: search/replace edits to an existing file, after the user accepts the diff. */
import { z } from "zod";
import type { ToolSpec } from "../server/mcp/toolRegistrar";
import { completeByAcceptingTheDiff, readBeforeEdit, reviewAndWrite } from "./diffReview";
import { resolveToolPath } from "./paths";
import type { ToolPorts } from "./ports";
import { toolError } from "./results";
import { applyEdits } from "./searchReplace";
import { shownPath } from "./shownPath";
import { decodeText, looksBinary } from "./text";

const edit = z.object({
  search: z
    .string()
    .min(1, "an edit's search text is empty: copy the exact lines to replace from the file")
    .describe("Exact text in the file to replace (whitespace and indentation included); must occur once unless replace_all."),
  replace: z.string().describe("The text to put in its place (empty to delete)."),
  replace_all: z.boolean().optional().describe("Replace every occurrence instead of requiring exactly one. Default false."),
});

const shape = {
  path: z
    .string()
    .min(1, "path is empty: give the file to edit")
    .describe("The file to edit, absolute or relative to the workspace folder. It must exist (use write_file to create one)."),
  edits: z
    .array(edit)
    .min(1, "edits is empty: give at least one {search, replace}")
    .max(100, "more than 100 edits: use write_file for a rewrite")
    .describe("Applied in order, each to the result of the ones before."),
};

export function applyDiffTool(ports: ToolPorts): ToolSpec<typeof shape> {
  return {
    name: "apply_diff",
    title: "Edit a file (after the user's review)",
    description:
      "Changes parts of an existing file with search/replace edits: each edit's search text must appear exactly once in the file (or set replace_all), " +
      "copied exactly from the file. Edits apply in order. If any edit does not apply, nothing is changed and the error names the edit. " +
      'The user then sees the change as a VS Code diff and accepts or rejects it: status "denied" means rejected (nothing written; do not retry the ' +
      "same change).",
    inputSchema: shape,
    annotations: { destructiveHint: true },
    display: (args) => `${args.path} (${args.edits.length} edit${args.edits.length === 1 ? "" : "s"})`,
    complete: completeByAcceptingTheDiff,
    async handler(args, context) {
      const resolved = await resolveToolPath(ports, context, args.path, "Edit");
      if (!resolved.ok) return resolved.result;
      const stat = await ports.files.stat(resolved.path);
      if (!stat) return toolError(`${resolved.path} does not exist: apply_diff edits existing files; use write_file to create it.`);
      if (stat.type !== "file") return toolError(`${resolved.path} is not a file.`);
      const before = await readBeforeEdit(ports, resolved.path);
      if ("result" in before) return before.result;
      if (!before.bytes) return toolError(`${resolved.path} does not exist: apply_diff edits existing files; use write_file to create it.`);
      if (looksBinary(before.bytes)) return toolError(`${resolved.path} is a binary file; apply_diff edits text files only.`);
      const original = decodeText(before.bytes);
      const outcome = applyEdits(original, args.edits, shownPath(ports, context.agentId, resolved.path));
      if (!outcome.ok) return toolError(outcome.message);
      return reviewAndWrite(ports, context, {
        path: resolved.path,
        original,
        proposed: outcome.text,
        title: `apply_diff (${args.edits.length} edit${args.edits.length === 1 ? "" : "s"})`,
        extra: { replacements: outcome.replacements },
      });
    },
  };
}
