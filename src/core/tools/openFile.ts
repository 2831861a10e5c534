/** open_file (declared in core/toolDeclarations/openFile.ts): show a file to the user in an editor, optionally at a line. */
import { openFile } from "../toolDeclarations";
import { implement } from "./implement";
import { resolveToolPath } from "./paths";
import { ok, toolError } from "./results";
import { shownPath } from "./shownPath";
import { errorMessage } from "../util";

export const openFileTool = implement(openFile, (ports) => async (args, context) => {
  const resolved = await resolveToolPath(ports, context, args.path, "Open");
  if (!resolved.ok) return resolved.result;
  const stat = await ports.files.stat(resolved.path);
  if (!stat) return toolError(`${resolved.path} does not exist.`);
  if (stat.type !== "file") return toolError(`${resolved.path} is not a file.`);
  try {
    await ports.editor.open(resolved.path, args.line);
  } catch (err) {
    return toolError(`Could not open ${resolved.path}: ${errorMessage(err)}`);
  }
  return ok({ path: shownPath(ports, context.agentId, resolved.path), ...(args.line ? { line: args.line } : {}) });
});
