/** list_files, declared: a folder's entries, optionally recursive, capped. Handler: ../listFiles.ts. */
import { defineArcadiaTool } from "./arcadiaTool";

export const DEFAULT_LIST_LIMIT = 500;

export const listFiles = defineArcadiaTool({
  name: "list_files",
  title: "List files",
  description:
    'Lists a folder of the workspace: entries relative to that folder, folders ending in "/" (a symlink leading out of the workspace is listed ' +
    "by its name alone). recursive: true walks sub-folders too (skipping .git and node_modules, not following symlinks). truncated: true means the " +
    "limit was reached.",
  input: (z) => ({
    path: z
      .string()
      .min(1, 'path is empty: leave it out (or give ".") for the workspace folder')
      .optional()
      .describe("The folder to list, absolute or relative to the workspace folder. Default: the workspace folder."),
    recursive: z.boolean().optional().describe("Also list what is inside sub-folders (not .git or node_modules). Default false."),
    limit: z
      .number()
      .int("limit must be a whole number")
      .min(1, "limit must be at least 1")
      .max(5000, "limit can be at most 5000: list a sub-folder instead")
      .optional()
      .describe(`At most this many entries. Default ${DEFAULT_LIST_LIMIT}.`),
  }),
  annotations: { readOnlyHint: true },
  words: { label: "Listing ", action: "list ", of: { file: "path" }, otherwise: { label: "Listing files", action: "list files" } },
  display: (args) => `${args.path ?? "."}${args.recursive ? " (recursive)" : ""}`,
});
