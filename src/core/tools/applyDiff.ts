/** apply_diff (declared in core/toolDeclarations/applyDiff.ts): search/replace edits to an existing file, after the user accepts the diff. */
import { applyDiff } from "../toolDeclarations";
import { readBeforeEdit, reviewAndWrite } from "./diffReview";
import { implement } from "./implement";
import { resolveToolPath } from "./paths";
import { toolError } from "./results";
import { applyEdits } from "./searchReplace";
import { shownPath } from "./shownPath";
import { decodeText, looksBinary } from "./text";

export const applyDiffTool = implement(applyDiff, (ports) => async (args, context) => {
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
});
