/**
 * A queue task's worktree made ready before its agent starts: which setup runs is core/queue's
 * setup plan (the user's own `arcadia.worktree.setupCommand`, or the repository's
 * `.arcadia/worktree-setup.sh` only once the user saw its exact text and said yes, remembered per
 * hash of that text), asked through a port (a modal on VS Code), run through another (a child
 * process in the worktree, stopped past the timeout). A failure stops that task with the end of
 * its output, never the queue; the plan's notes (a workspace's setting not run) are told once each.
 */
import { readRepoSetupFile, rememberAnswer, type SetupAnswer, type SetupAnswers, type SetupEnd, setupFailure, setupPlan } from "../../core/queue";

export interface SetupPorts {
  /** `arcadia.worktree.setupCommand` from the user's settings only, and as a workspace or folder sets it (never run). */
  commands(): { user: string | undefined; workspace: string | undefined };
  /** `arcadia.worktree.setupTimeoutSeconds` in ms. */
  timeoutMs(): number;
  answers(): SetupAnswers;
  saveAnswers(answers: SetupAnswers): Promise<void>;
  /** Shows the question and the exact text; "run", "skip", or undefined when the user closed it (asked again next time). */
  ask(question: string, shown: string): Promise<SetupAnswer | undefined>;
  /** Runs `argv` in `cwd`, stopped past `timeoutMs`. */
  run(argv: string[], cwd: string, timeoutMs: number): Promise<SetupEnd>;
  /** A note for the user (said once per distinct text). */
  note(message: string): void;
}

export type SetupResult = { ready: true; ran: boolean; durationMs?: number } | { ready: false; problem: string; output: string | null };

/** Questions on screen, per port set and hash: two worktrees made at once ask the user once, and both hear the answer. */
const asking = new WeakMap<SetupPorts, Map<string, Promise<SetupAnswer | undefined>>>();

function askOnce(ports: SetupPorts, hash: string, ask: () => Promise<SetupAnswer | undefined>): Promise<SetupAnswer | undefined> {
  const open = asking.get(ports) ?? new Map<string, Promise<SetupAnswer | undefined>>();
  asking.set(ports, open);
  const pending = open.get(hash);
  if (pending) return pending;
  const asked = ask().finally(() => open.delete(hash));
  open.set(hash, asked);
  return asked;
}

export async function setUpWorktree(ports: SetupPorts, repo: string, worktree: string): Promise<SetupResult> {
  const commands = ports.commands();
  const plan = setupPlan({
    repo,
    userCommand: commands.user,
    workspaceCommand: commands.workspace,
    repoFile: await readRepoSetupFile(worktree),
    answers: ports.answers(),
  });
  plan.notes.forEach((n) => ports.note(n));
  if (plan.kind === "none") return { ready: true, ran: false };
  if (plan.kind === "refused") return { ready: false, problem: plan.problem, output: null };
  if (plan.kind === "ask") {
    const answer = await askOnce(ports, plan.hash, () => ports.ask(plan.question, plan.shown));
    if (answer === undefined)
      return {
        ready: false,
        problem: "Its setup was not run: you closed the question about the repository's setup file. Retry it to be asked again.",
        output: null,
      };
    if (ports.answers()[repo]?.[plan.hash] !== answer) await ports.saveAnswers(rememberAnswer(ports.answers(), repo, plan.hash, answer));
    if (answer === "skip") return { ready: true, ran: false };
  }
  const timeoutMs = ports.timeoutMs();
  const end = await ports.run(plan.argv, worktree, timeoutMs);
  const failure = setupFailure(end, timeoutMs);
  return failure ? { ready: false, problem: failure.problem, output: failure.output } : { ready: true, ran: true, durationMs: end.durationMs };
}
