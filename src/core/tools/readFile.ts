/** read_file (declared in core/toolDeclarations/readFile.ts): a text file's lines, a window at a time (offset/limit), with a size cap. */
import { isPathChanged } from "./checkedOpen";
import { DEFAULT_LINES, MAX_LINE_CHARS, MAX_READ_BYTES, readFile } from "../toolDeclarations";
import { implement } from "./implement";
import { resolveToolPath } from "./paths";
import { ok, toolError } from "./results";
import { shownPath } from "./shownPath";
import { decodeText, looksBinary } from "./text";
import { errorMessage, MB } from "../util";

/** Enough for a long file window, small enough not to flood the agent's context. */
const MAX_RESULT_CHARS = 100_000;

export const readFileTool = implement(readFile, (ports) => async (args, context) => {
  const resolved = await resolveToolPath(ports, context, args.path, "Read");
  if (!resolved.ok) return resolved.result;
  const path = resolved.path;
  const stat = await ports.files.stat(path);
  if (!stat) return toolError(`${path} does not exist. Check the name with list_files or search_files.`);
  if (stat.type === "directory") return toolError(`${path} is a folder: use list_files to see what is in it.`);
  if (stat.size > MAX_READ_BYTES)
    return toolError(
      `${path} is ${(stat.size / MB).toFixed(1)} MB, over the ${MAX_READ_BYTES / MB} MB read_file limit: use search_files to find the part you need.`,
    );
  let bytes: Uint8Array;
  try {
    bytes = await ports.files.readFile(path);
  } catch (err) {
    // A link swapped in since the path was checked: nothing is read through it.
    if (isPathChanged(err)) return toolError(`${path} was not read: ${err.message}. Check the path with list_files and read it again.`, { path_changed: true });
    return toolError(`Reading ${path} failed: ${errorMessage(err)}`);
  }
  if (looksBinary(bytes)) return toolError(`${path} is a binary file (${bytes.length} bytes); read_file reads text only.`);

  const lines = decodeText(bytes).split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const start = args.offset ?? 1;
  if (start > Math.max(lines.length, 1)) return toolError(`offset ${start} is past the end: ${path} has ${lines.length} lines.`);
  const want = args.limit ?? DEFAULT_LINES;
  const out: string[] = [];
  let chars = 0;
  let cut = false;
  for (let i = start - 1; i < lines.length && out.length < want; i++) {
    let line = lines[i] as string;
    if (line.length > MAX_LINE_CHARS) {
      line = `${line.slice(0, MAX_LINE_CHARS)} [… line cut at ${MAX_LINE_CHARS} characters]`;
      cut = true;
    }
    if (chars + line.length > MAX_RESULT_CHARS && out.length > 0) break;
    out.push(line);
    chars += line.length + 1;
  }
  const end = start + out.length - 1;
  return ok({
    path: shownPath(ports, context.agentId, path),
    start_line: start,
    end_line: end,
    total_lines: lines.length,
    ...(end < lines.length ? { next_offset: end + 1 } : {}),
    ...(cut ? { long_lines_cut: true } : {}),
    content: out.join("\n"),
  });
});
