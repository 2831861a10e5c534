/**
 * "Queue Again on Another Model…" (the palette, and a compare tab's "Again on…" with the race and
 * member): which race member (when not given), then which model — the aliases the race did not
 * use first, or any model's id typed — and the race's task joins the queue with that `--model`.
 * What the command is given is checked like anything from outside: a race and member that exist.
 */
import { vscode } from "../api";
import type { RaceBook } from "../../agents/races/raceBook";
import { modelNameProblem } from "../../core/launch";
import { againModels, againTask, type NewTask } from "../../core/queue";
import type { Race } from "../../core/races";

const TITLE = "Queue Again on Another Model";

/** A compare tab's member, as the command is given it. */
export interface AgainTarget {
  raceId: string;
  member: string;
}

const isTarget = (value: unknown): value is AgainTarget =>
  typeof value === "object" && value !== null && typeof (value as AgainTarget).raceId === "string" && typeof (value as AgainTarget).member === "string";

/** The race and the task to queue; undefined when the user escaped or nothing could be chosen (said why). */
export async function askAgain(races: Pick<RaceBook, "all" | "get">, given?: unknown): Promise<{ race: Race; task: NewTask } | undefined> {
  const target = isTarget(given) ? given : await pickMember(races);
  if (!target) return undefined;
  const race = races.get(target.raceId);
  const member = race?.members.find((m) => m.name === target.member);
  if (!race || !member) return void vscode.window.showWarningMessage(`${TITLE}: that race or its member is gone.`);
  const model = await pickModel(race, member.model);
  if (!model) return undefined;
  return { race, task: againTask(race, member.name, model) };
}

async function pickMember(races: Pick<RaceBook, "all">): Promise<AgainTarget | undefined> {
  const items = races.all().flatMap((race) =>
    race.members.map((m) => ({
      label: m.name,
      description: m.model ?? "the default model",
      detail: race.prompt,
      target: { raceId: race.id, member: m.name },
    })),
  );
  if (items.length === 0) return void vscode.window.showInformationMessage(`${TITLE}: no race yet. "Run on Several Agents…" starts one.`);
  const picked = await vscode.window.showQuickPick(items, { title: TITLE, placeHolder: "Whose task?", matchOnDetail: true, ignoreFocusOut: true });
  return picked?.target;
}

async function pickModel(race: Race, own: string | null): Promise<string | undefined> {
  const typed = "Another model…";
  const items = [
    ...againModels(race)
      .filter((m) => m !== own)
      .map((m) => ({ label: m, description: race.members.some((r) => r.model === m) ? "used in this race" : undefined })),
    { label: typed, description: "a model's id, e.g. claude-haiku-4-5" },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: `${TITLE}: the model`,
    placeHolder: `${race.prompt} — ran on ${own ?? "the default model"}`,
    ignoreFocusOut: true,
  });
  if (!picked || picked.label !== typed) return picked?.label;
  const model = await vscode.window.showInputBox({
    title: `${TITLE}: the model`,
    prompt: "Its --model.",
    validateInput: (v) => (v.trim() === own ? `It ran on ${own} already.` : modelNameProblem(v.trim())),
    ignoreFocusOut: true,
  });
  return model?.trim() || undefined;
}
