/**
 * What "Open Claude Code" and "Open Claude Code in New Worktree…" accept when another extension, a
 * keybinding (`"args"`) or a task runs them: a task typed at the new agent's prompt once its claude
 * is ready, and (worktree) the worktree's name instead of asking for it. Untrusted input: unknown
 * fields are refused rather than ignored, and the task must read as it will be typed (no control,
 * bidi or invisible characters, no line break, no run of blanks that would show collapsed), as
 * everything Arcadia types at a prompt.
 */
import { z } from "zod";
import { worktreeNameProblem } from "../git";
import { typedTextProblem } from "./typedText";

export interface LaunchRequest {
  /** Typed at the agent's prompt, then Enter, once its claude is idle there. */
  prompt?: string;
  /** The worktree's name (`.claude/worktrees/<name>`, branch `worktree-<name>`); worktree launches only. */
  worktree?: string;
  /** Claude Code's sandbox for this agent's shell commands, instead of arcadia.agentSandbox's choice. */
  sandbox?: "on" | "off";
}

/** The longest task typed at a prompt: a paragraph, not a file. */
export const MAX_PROMPT_CHARS = 4_000;

const schema = z
  .object({
    prompt: z.string().max(MAX_PROMPT_CHARS, `the prompt is longer than ${MAX_PROMPT_CHARS} characters`).optional(),
    worktree: z.string().optional(),
    sandbox: z.enum(["on", "off"], { message: 'sandbox is "on" or "off"' }).optional(),
  })
  .strict();

/** The command's argument, checked: `undefined` (run from the palette) is the empty request. */
export function parseLaunchRequest(arg: unknown, opts: { worktree: boolean }): { ok: true; request: LaunchRequest } | { ok: false; problem: string } {
  if (arg === undefined || arg === null) return { ok: true, request: {} };
  const parsed = schema.safeParse(arg);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      problem:
        issue?.code === "unrecognized_keys"
          ? `unknown ${issue.keys.length === 1 ? "field" : "fields"} ${issue.keys.join(", ")}: only prompt, worktree and sandbox are accepted`
          : (issue?.message ?? "not a launch request"),
    };
  }
  const { prompt, worktree, sandbox } = parsed.data;
  if (worktree !== undefined && !opts.worktree) return { ok: false, problem: "worktree is only for Open Claude Code in New Worktree" };
  const nameProblem = worktree === undefined ? undefined : worktreeNameProblem(worktree);
  if (nameProblem) return { ok: false, problem: `worktree: ${nameProblem}` };
  const promptProblem = prompt === undefined ? undefined : typedTextProblem(prompt);
  if (promptProblem) return { ok: false, problem: `prompt: ${promptProblem}` };
  return {
    ok: true,
    request: { ...(prompt !== undefined ? { prompt } : {}), ...(worktree !== undefined ? { worktree } : {}), ...(sandbox !== undefined ? { sandbox } : {}) },
  };
}
