/** get_diagnostics, declared: the Problems of one file or of the whole workspace. Handler: ../getDiagnostics.ts. */
import { defineArcadiaTool } from "./arcadiaTool";

export const MAX_DIAGNOSTICS = 500;

export const getDiagnostics = defineArcadiaTool({
  name: "get_diagnostics",
  title: "Get problems (diagnostics)",
  description:
    `The problems VS Code reports (compiler errors, lint warnings…) for one file, or for the whole workspace: path, 1-based line and ` +
    `column, severity, message, source. At most ${MAX_DIAGNOSTICS}, errors first. Language servers report files they have seen: open a file ` +
    `(open_file) to get its problems if it has none yet.`,
  input: (z) => ({
    path: z
      .string()
      .min(1, "path is empty: leave it out for the whole workspace")
      .optional()
      .describe("One file; leave out for every file in the workspace that has problems."),
    min_severity: z
      .enum(["error", "warning", "information", "hint"], { error: 'min_severity must be one of "error", "warning", "information", "hint"' })
      .optional()
      .describe('Only problems at least this severe. Default "hint" (all).'),
  }),
  annotations: { readOnlyHint: true },
  words: {
    label: "Checking problems in ",
    action: "check problems in ",
    of: { file: "path" },
    otherwise: { label: "Checking problems", action: "check problems" },
  },
  display: (args) => args.path ?? "workspace",
});
