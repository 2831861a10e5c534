/**
 * "Run on Several Agents…": the task (typed at every agent's prompt), how many agents (2–5) and,
 * if wanted, a model per agent; then agents/races/raceStart.ts makes a worktree per agent from the same
 * commit and starts them. Nothing is asked of git or started until the last answer; Escape at any
 * question starts nothing. The task must read as it will be typed: no control, bidi or invisible
 * characters, no run of blanks that would show collapsed (core/util/visibleText.ts).
 */
import { randomUUID } from "node:crypto";
import { vscode } from "../api";
import type { RaceStartReport } from "../../agents/races/raceStart";
import { isPlainRef, repositoryRoot } from "../../core/git";
import { visibleText } from "../../core/util";
import { freeTaskName, MAX_MEMBERS, MIN_MEMBERS, type Race, startingPoint, startRace, takenWorktreeNames, taskNameFrom } from "../../core/races";
import { modelNameProblem, typedTextProblem } from "../../core/launch";

const TITLE = "Run on Several Agents";

export interface RaceAnswers {
  prompt: string;
  models: (string | null)[];
}

/** The three questions; undefined when the user escaped one. */
export async function askForRace(): Promise<RaceAnswers | undefined> {
  const prompt = await vscode.window.showInputBox({
    title: `${TITLE} (1/3): the task`,
    prompt: "Typed at each agent's prompt, as you write it here. Each agent works in a git worktree of its own, all from what is checked out now.",
    placeHolder: "e.g. Make the login page remember the last user name",
    validateInput: (v) => typedTextProblem(v.trim()),
    // A task is a paragraph: a click elsewhere (to copy a file name, a toast) must not lose it.
    ignoreFocusOut: true,
  });
  if (prompt === undefined) return undefined;
  const count = await pickCount();
  if (count === undefined) return undefined;
  const same = "Every agent with the default model";
  const each = "Choose a model per agent…";
  const choice = await vscode.window.showQuickPick([same, each], {
    ignoreFocusOut: true,
    title: `${TITLE} (3/3): models`,
    placeHolder: "The default: the --model in arcadia.extraArgs, else Claude Code's own",
  });
  if (choice === undefined) return undefined;
  const models: (string | null)[] = [];
  for (let n = 1; n <= count; n++) {
    if (choice === same) {
      models.push(null);
      continue;
    }
    const model = await vscode.window.showInputBox({
      title: `${TITLE}: agent ${n} of ${count}`,
      prompt: "Its --model (e.g. opus, sonnet, claude-haiku-4-5); empty: the default.",
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === "" ? undefined : modelNameProblem(v.trim())),
    });
    if (model === undefined) return undefined;
    models.push(model.trim() || null);
  }
  return { prompt: prompt.trim(), models };
}

async function pickCount(): Promise<number | undefined> {
  const counts = Array.from({ length: MAX_MEMBERS - MIN_MEMBERS + 1 }, (_, i) => MIN_MEMBERS + i);
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { count: number }>();
  pick.title = `${TITLE} (2/3): how many agents?`;
  pick.ignoreFocusOut = true;
  pick.items = counts.map((count) => ({ label: `${count} agents`, count }));
  pick.activeItems = pick.items.filter((i) => i.count === 3);
  const chosen = await new Promise<number | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]?.count ?? pick.activeItems[0]?.count));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  return chosen;
}

/** The race for `answers` in the repository of `folder`, named from its task; undefined (said why) when it cannot start there. */
export async function planRace(
  folder: string,
  answers: RaceAnswers,
  /** Members' names of the races already kept: a name free on disk again is not reused (figures and groups go by name). */
  kept: readonly Race[] = [],
): Promise<{ race: Race; commit: string } | undefined> {
  const repo = await repositoryRoot(folder);
  if (!repo) {
    void vscode.window.showWarningMessage(`${TITLE} needs a git repository: ${folder} is not in one. Run "git init" there (and commit once).`);
    return undefined;
  }
  const from = await startingPoint(repo).catch(() => undefined);
  if (!from) {
    void vscode.window.showWarningMessage(`${TITLE} starts every agent from the branch checked out in ${repo}: check out a branch with a commit first.`);
    return undefined;
  }
  if (!isPlainRef(from.base)) {
    void vscode.window.showWarningMessage(`${TITLE} cannot start from the branch ${visibleText(from.base)}: its name is not a plain git branch name.`);
    return undefined;
  }
  const taken = await takenWorktreeNames(repo);
  for (const race of kept) if (race.repo === repo) for (const member of race.members) taken.add(member.name);
  const task = freeTaskName(taskNameFrom(answers.prompt), answers.models.length, (name) => taken.has(name));
  const race = startRace({
    id: randomUUID(),
    task,
    prompt: answers.prompt,
    repo,
    base: from.base,
    now: Date.now(),
    models: answers.models,
    commit: from.commit,
  });
  return { race, commit: from.commit };
}

/** What the log says of a start: how long each step took (the figure the e2e prints). */
export function startSummary(race: Race, report: RaceStartReport): string {
  const members = report.members.map((m) => {
    const problem = m.problem ? ` (${m.problem})` : "";
    const again = m.enterAgain ? ` (Enter pressed ${m.enterAgain} more time${m.enterAgain > 1 ? "s" : ""})` : "";
    return (
      `${m.name}: launched ${m.launchedMs ?? "-"} ms, ready ${m.readyMs ?? "-"} ms, typed ${m.typedMs ?? "-"} ms, taken ${m.takenMs ?? "-"} ` +
      `ms${again}${problem}`
    );
  });
  const count = report.members.length;
  const all =
    report.allTypedMs === undefined
      ? "not every task was typed"
      : `${count} tasks typed ${report.allTypedMs} ms after the start, ${report.afterLastReadyMs} ms after the last claude was ready`;
  const taken = report.allTakenMs === undefined ? "not every agent started on it" : `all working on it ${report.allTakenMs} ms after the start`;
  return `race ${race.task}: ${all}; ${taken}; ${members.join("; ")}`;
}
