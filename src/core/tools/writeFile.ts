/** write_file: create or replace a whole file, after the user accepts the diff. */
import { z } from "zod";
import type { ToolSpec } from "../server/mcp/toolRegistrar";
import { completeByAcceptingTheDiff, readBeforeEdit, reviewAndWrite } from "./diffReview";
import { resolveToolPath } from "./paths";
import type { ToolPorts } from "./ports";
import { toolError } from "./results";
import { decodeText, looksBinary, MB } from "./text";

const MAX_WRITE_CHARS = 5 * MB;

const shape = {
  path: z
    .string()
    .min(1, 'path is empty: give the file to write, e.g. "src/new.ts"')
    .describe("The file to create or replace, absolute or relative to the workspace folder. Missing folders are created."),
  content: z
    .string()
    .max(MAX_WRITE_CHARS, `content is over ${MAX_WRITE_CHARS / MB} M characters: write the file in parts or generate it with a command`)
    .describe("The complete new content of the file."),
};

export function writeFileTool(ports: ToolPorts): ToolSpec<typeof shape> {
  return {
    name: "write_file",
    title: "Write a file (after the user's review)",
    description:
      "Creates a file or replaces its whole content. The user first sees the change as a VS Code diff and accepts or rejects it: " +
      'status "denied" means rejected (nothing written; do not retry the same change). To change part of an existing file, prefer apply_diff.',
    inputSchema: shape,
    annotations: { destructiveHint: true },
    display: (args) => args.path,
    complete: completeByAcceptingTheDiff,
    async handler(args, context) {
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
    },
  };
}
