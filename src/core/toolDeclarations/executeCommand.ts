/**
 * execute_command, declared: runs a shell command in a terminal the user can see, and answers with
 * its output and exit code. Complete hands back the output so far (completeWithOutputSoFar); the
 * handler is ../executeCommand.ts.
 */
import type { CompleteBehaviour } from "../mcp";
import { jsonResult } from "../mcp";
import { defineArcadiaTool } from "./arcadiaTool";

export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 600;
/** The end of the output goes back to the agent; a whole build log would drown its context. */
export const MAX_OUTPUT_CHARS = 30_000;

/**
 * Complete on a running command: the output so far, at once; the command is left running in its
 * terminal (Cancel interrupts it). Before it started (still waiting for its approval) there is no
 * output: Complete then cancels, like for any tool.
 */
export const completeWithOutputSoFar: CompleteBehaviour = {
  hint: "Return the output so far (the command may keep running in its terminal)",
  run(call, resources) {
    if (!call.terminalId) return { kind: "nothingPartial" };
    const { output, captured } = resources.partialOutput(call.terminalId);
    return {
      kind: "answer",
      result: jsonResult({
        status: "force-completed",
        exit_code: null,
        output,
        output_captured: captured,
        message: "Force-completed from the Arcadia panel with the output so far; the command may still be running in its terminal.",
      }),
    };
  },
};

export const executeCommand = defineArcadiaTool({
  name: "execute_command",
  title: "Run a shell command",
  description:
    "Runs one shell command (non-interactively, with no input) shown in a VS Code terminal the user can watch, and returns " +
    `its output (the last ${MAX_OUTPUT_CHARS} characters) and exit code. A command the user allow-listed runs at once, in a ` +
    "sandbox, as its words (no shell: no pipes or redirects); any other asks the user first, then runs as `<shell> -c`. Do not start commands that " +
    "never end (servers, watchers) unless you set timeout_seconds; the user can also finish a long call early from the " +
    'Arcadia panel, in which case you get the output so far with status "force-completed".',
  input: (z) => ({
    command: z
      .string()
      .trim()
      .min(1, 'command is empty: give the shell command line to run, e.g. "npm test"')
      .max(20_000, "command is longer than 20,000 characters: put a long script in a file and run that file")
      .describe("The shell command line to run, exactly as you would type it in the user's terminal shell."),
    cwd: z
      .string()
      .min(1, "cwd is empty: leave it out to run in the workspace folder")
      .optional()
      .describe(
        "Folder to run in, absolute or relative to the workspace folder. Default: the workspace folder. Outside the workspace needs the user's approval.",
      ),
    timeout_seconds: z
      .number()
      .int("timeout_seconds must be a whole number of seconds")
      .min(1, "timeout_seconds must be at least 1")
      .max(86_400, "timeout_seconds can be at most 86400 (a day)")
      .optional()
      .describe(
        `Stop waiting after this many seconds: the command is interrupted (Ctrl+C) and the output so far is returned with timed_out: true. Default ` +
          `${DEFAULT_COMMAND_TIMEOUT_SECONDS}.`,
      ),
    outside_sandbox: z
      .boolean()
      .optional()
      .describe(
        "Commands that run without the user's approval run in a sandbox (no network; outside the workspace only system folders, read-only; " +
          "the workspace's .git, .claude and .vscode read-only). Set true when a command failed because of that: the user is asked, and an approved " +
          "command runs as shown.",
      ),
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
  words: { label: "Running: ", action: "", of: { text: "command" }, otherwise: { label: "Running a command", action: "a command" }, endsAsDeed: true },
  display: (args) => args.command,
  complete: completeWithOutputSoFar,
});
