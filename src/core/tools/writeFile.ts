/** write_file (declared in core/toolDeclarations/writeFile.ts): create or replace a whole file, after the user accepts the diff. */
import { writeFile } from "../toolDeclarations";
import { readBeforeEdit, reviewAndWrite } from "./diffReview";
import { implement } from "./implement";
import { resolveToolPath } from "./paths";
import { toolError } from "./results";
import { decodeText, looksBinary } from "./text";

export const writeFileTool = implement(writeFile, (ports) => async (args, context) => {
  const resolved = await resolveToolPath(ports, context, args.path, "Write");
  if (!resolved.ok) return resolved.result;
  const stat = await ports.files.stat(resolved.path);
  if (stat?.type === "directory") return toolError(`${resolved.path} is a folder; give a file path.`);
  const before = await readBeforeEdit(ports, resolved.path);
  if ("result" in before) return before.result;
  if (before.bytes && looksBinary(before.bytes)) return toolError(`${resolved.path} is a binary file; write_file replaces text files only.`);
  const original = before.bytes && decodeText(before.bytes);
  return reviewAndWrite(ports, context, {
    path: resolved.path,
    original,
    proposed: args.content,
    title: `write_file${original === undefined ? " (new file)" : ""}`,
  });
});
