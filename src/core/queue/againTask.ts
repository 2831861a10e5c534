/**
 * "Again on another model": a race member's task queued once more with another `--model`, to see
 * what a different model makes of the same words. The task is the race's prompt exactly as every
 * member was asked; it runs in the race's repository from the race's base branch, so the result
 * lands beside the race's. The models offered first are Claude Code's aliases the race did not use.
 */
import { MODEL_ALIASES, modelNameProblem } from "../launch";
import type { NewTask } from "./queue";
import type { Queue } from "./queueTypes";

/** What of a race the queue needs (core/races' Race has it). */
export interface AgainSource {
  prompt: string;
  repo: string;
  base: string;
  members: readonly { name: string; model: string | null }[];
}

/** The aliases none of the race's members ran on, first; the ones used after them. */
export function againModels(race: AgainSource): string[] {
  const used = new Set(race.members.map((m) => m.model));
  return [...MODEL_ALIASES.filter((m) => !used.has(m)), ...MODEL_ALIASES.filter((m) => used.has(m))];
}

/** The task to queue; throws the user's words when the member or the model will not do. */
export function againTask(race: AgainSource, memberName: string, model: string): NewTask {
  const member = race.members.find((m) => m.name === memberName);
  if (!member) throw new Error(`The race has no member ${memberName}.`);
  const problem = modelNameProblem(model);
  if (problem) throw new Error(problem);
  if (member.model === model) throw new Error(`${memberName} ran on ${model} already: choose another model.`);
  return { text: race.prompt, model };
}

/**
 * Why the queue cannot take it, or undefined: the queue there is takes it when it runs in the
 * race's repository (a new one starts from the race's base branch); a queue of another repository
 * is not mixed with it.
 */
export function againQueueProblem(current: Pick<Queue, "repo"> | null, race: AgainSource): string | undefined {
  if (!current || current.repo === race.repo) return undefined;
  return `The queue runs tasks in ${current.repo}, and this race is in ${race.repo}: land or cancel that queue's tasks first.`;
}
