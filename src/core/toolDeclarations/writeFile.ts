/** write_file, declared: create or replace a whole file, after the user accepts the diff. Handler: ../writeFile.ts. */
import { MB } from "../util";
import { defineArcadiaTool } from "./arcadiaTool";
import { completeByAcceptingTheDiff } from "./diffComplete";

const MAX_WRITE_CHARS = 5 * MB;

export const writeFile = defineArcadiaTool({
  name: "write_file",
  title: "Write a file (after the user's review)",
  description:
    "Creates a file or replaces its whole content. The user first sees the change as a VS Code diff and accepts or rejects it: " +
    'status "denied" means rejected (nothing written; do not retry the same change). To change part of an existing file, prefer apply_diff.',
  input: (z) => ({
    path: z
      .string()
      .min(1, 'path is empty: give the file to write, e.g. "src/new.ts"')
      .describe("The file to create or replace, absolute or relative to the workspace folder. Missing folders are created."),
    content: z
      .string()
      .max(MAX_WRITE_CHARS, `content is over ${MAX_WRITE_CHARS / MB} M characters: write the file in parts or generate it with a command`)
      .describe("The complete new content of the file."),
  }),
  annotations: { destructiveHint: true },
  words: { label: "Writing ", action: "write ", of: { file: "path" }, otherwise: { label: "Writing a file", action: "write a file" } },
  display: (args) => args.path,
  complete: completeByAcceptingTheDiff,
  writes: "path",
});
