/** open_file, declared: show a file to the user in an editor, optionally at a line. Handler: ../openFile.ts. */
import { defineArcadiaTool } from "./arcadiaTool";

export const openFile = defineArcadiaTool({
  name: "open_file",
  title: "Open a file in the editor",
  description:
    "Opens a file in a VS Code editor for the user to see, optionally at a line. Use it to point the user at something; to read a file yourself use " +
    "read_file.",
  input: (z) => ({
    path: z.string().min(1, "path is empty: give the file to open").describe("The file to open, absolute or relative to the workspace folder."),
    line: z
      .number()
      .int("line must be a whole line number")
      .min(1, "line is 1-based: the first line is 1")
      .optional()
      .describe("1-based line to reveal and put the cursor on."),
  }),
  annotations: { readOnlyHint: true },
  words: { label: "Opening ", action: "open ", of: { file: "path" }, otherwise: { label: "Opening a file", action: "open a file" } },
  display: (args) => `${args.path}${args.line ? `:${args.line}` : ""}`,
});
