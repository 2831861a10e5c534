/** open_file: show a file to the user in an editor, optionally at a line. */
import { z } from "zod";
import type { ToolSpec } from "../server/mcp/toolRegistrar";
import { resolveToolPath } from "./paths";
import type { ToolPorts } from "./ports";
import { ok, toolError } from "./results";
import { shownPath } from "./shownPath";
import { errorMessage } from "../util/errorMessage";

const shape = {
  path: z.string().min(1, "path is empty: give the file to open").describe("The file to open, absolute or relative to the workspace folder."),
  line: z
    .number()
    .int("line must be a whole line number")
    .min(1, "line is 1-based: the first line is 1")
    .optional()
    .describe("1-based line to reveal and put the cursor on."),
};

export function openFileTool(ports: ToolPorts): ToolSpec<typeof shape> {
  return {
    name: "open_file",
    title: "Open a file in the editor",
    description:
      "Opens a file in a VS Code editor for the user to see, optionally at a line. Use it to point the user at something; to read a file yourself use " +
      "read_file.",
    inputSchema: shape,
    annotations: { readOnlyHint: true },
    display: (args) => `${args.path}${args.line ? `:${args.line}` : ""}`,
    async handler(args, context) {
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
    },
  };
}
