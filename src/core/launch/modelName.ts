/**
 * What `--model` may be given (a race member's, a queued task's): a model's id or alias and
 * nothing a shell or the CLI could read as something else (no blank, no leading `-`, no quote).
 */
const MODEL = /^[A-Za-z0-9][A-Za-z0-9._:@[\]/-]{0,79}$/;

/** Claude Code's own aliases, offered first when a model is chosen. */
export const MODEL_ALIASES = ["opus", "sonnet", "haiku"] as const;

/** Why `name` cannot be a `--model`, or undefined. */
export function modelNameProblem(name: string): string | undefined {
  return MODEL.test(name) ? undefined : "A model id or alias: letters, digits and . _ : @ [ ] / - (e.g. opus, sonnet, claude-haiku-4-5).";
}
