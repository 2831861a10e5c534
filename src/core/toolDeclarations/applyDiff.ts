/** apply_diff, declared: search/replace edits to an existing file, after the user accepts the diff. Handler: ../applyDiff.ts. */
import { defineArcadiaTool } from "./arcadiaTool";
import { completeByAcceptingTheDiff } from "./diffComplete";

export const applyDiff = defineArcadiaTool({
  name: "apply_diff",
  title: "Edit a file (after the user's review)",
  description:
    "Changes parts of an existing file with search/replace edits: each edit's search text must appear exactly once in the file (or set replace_all), " +
    "copied exactly from the file. Edits apply in order. If any edit does not apply, nothing is changed and the error names the edit. " +
    'The user then sees the change as a VS Code diff and accepts or rejects it: status "denied" means rejected (nothing written; do not retry the ' +
    "same change).",
  input: (z) => ({
    path: z
      .string()
      .min(1, "path is empty: give the file to edit")
      .describe("The file to edit, absolute or relative to the workspace folder. It must exist (use write_file to create one)."),
    edits: z
      .array(
        z.object({
          search: z
            .string()
            .min(1, "an edit's search text is empty: copy the exact lines to replace from the file")
            .describe("Exact text in the file to replace (whitespace and indentation included); must occur once unless replace_all."),
          replace: z.string().describe("The text to put in its place (empty to delete)."),
          replace_all: z.boolean().optional().describe("Replace every occurrence instead of requiring exactly one. Default false."),
        }),
      )
      .min(1, "edits is empty: give at least one {search, replace}")
      .max(100, "more than 100 edits: use write_file for a rewrite")
      .describe("Applied in order, each to the result of the ones before."),
  }),
  annotations: { destructiveHint: true },
  words: { label: "Editing ", action: "edit ", of: { file: "path" }, otherwise: { label: "Editing a file", action: "edit a file" } },
  display: (args) => `${args.path} (${args.edits.length} edit${args.edits.length === 1 ? "" : "s"})`,
  complete: completeByAcceptingTheDiff,
  writes: "path",
});
