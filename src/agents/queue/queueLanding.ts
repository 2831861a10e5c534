/**
 * "Land Finished Work…" without its dialogs: which done tasks are still to land (their branch is
 * there and not merged into the base yet: read from git each time, so a reload or a merge by hand
 * is seen), the order core/queue's landing plan gives, and the merges one at a time — each through
 * Merge…'s own merge (core/git mergeWorktree: the main checkout on the base, predicted first, a
 * merge git refuses undone), then the check command. It stops at the first conflict or failing
 * check: a merge whose check fails is taken back (`git reset --keep` to the commit before it, which
 * refuses rather than lose a local change), so the base is never left with a half-landed task.
 */
import { join } from "node:path";
import { git, type MergeRequest, runGit } from "../../core/git";
import { gitMergeSimulator, type Landable, type LandingPlan, landingPlan, type Queue, type QueueTask } from "../../core/queue";

export interface TaskLanding extends Landable {
  task: QueueTask;
  request: MergeRequest;
}

const WORKTREES = join(".claude", "worktrees");

/** Done tasks whose branch is there and not in the base yet, in the order they finished. */
export async function toLand(queue: Queue): Promise<TaskLanding[]> {
  const done = queue.tasks.filter((t) => t.state === "done" && t.start).sort((a, b) => (a.endedAt ?? 0) - (b.endedAt ?? 0));
  const out: TaskLanding[] = [];
  for (const task of done) {
    const branch = `worktree-${task.start!.worktree}`;
    const tip = await runGit(queue.repo, ["rev-parse", "--verify", "-q", `refs/heads/${branch}^{commit}`]);
    if (tip.code !== 0) continue;
    const commit = tip.stdout.trim();
    const merged = await runGit(queue.repo, ["merge-base", "--is-ancestor", commit, `refs/heads/${queue.base}`]);
    if (merged.code === 0) continue;
    const worktree = join(queue.repo, WORKTREES, task.start!.worktree);
    out.push({ id: task.id, commit, task, request: { repo: queue.repo, worktree, branch, base: queue.base } });
  }
  return out;
}

export async function planLanding(queue: Queue, tasks: readonly TaskLanding[]): Promise<LandingPlan> {
  const base = (await git(queue.repo, ["rev-parse", `refs/heads/${queue.base}^{commit}`])).trim();
  return landingPlan(base, tasks, gitMergeSimulator(queue.repo));
}

export interface LandingPorts {
  /** Merge…'s merge of one task (core/git mergeWorktree). */
  merge(request: MergeRequest, message: string): Promise<{ merged: true; commit: string } | { merged: false; blocked: string; conflicts?: string[] }>;
  /** Runs `arcadia.compare.check` in the main checkout; undefined when none is set. */
  check(repo: string): Promise<{ ok: boolean; output: string } | undefined>;
  /** One task landed (or its check ran): for the log and the user. */
  progress(message: string): void;
}

export type LandingStop = { id: string; kind: "conflict"; files: string[]; why: string } | { id: string; kind: "check"; output: string; why: string };

export interface LandingResult {
  landed: string[];
  stop: LandingStop | null;
}

/** Merges `order` one at a time, each checked; stops at the first that does not land (its merge taken back when its check failed). */
export async function landInOrder(queue: Queue, tasks: readonly TaskLanding[], order: readonly string[], ports: LandingPorts): Promise<LandingResult> {
  const landed: string[] = [];
  for (const id of order) {
    const landing = tasks.find((t) => t.id === id)!;
    const before = (await git(queue.repo, ["rev-parse", "HEAD"])).trim();
    const outcome = await ports.merge(landing.request, `Queue task ${id}: ${landing.task.text}`);
    if (!outcome.merged) {
      const files = outcome.conflicts ?? [];
      return { landed, stop: { id, kind: "conflict", files, why: outcome.blocked } };
    }
    const check = await ports.check(queue.repo);
    if (check && !check.ok) {
      const undo = await runGit(queue.repo, ["reset", "-q", "--keep", before]);
      const undone = undo.code === 0 ? "its merge was taken back" : `its merge could not be taken back (${undo.stderr.trim()}): undo it by hand`;
      return { landed, stop: { id, kind: "check", output: check.output, why: `The check failed after merging it: ${undone}.` } };
    }
    landed.push(id);
    ports.progress(`${id} landed on ${queue.base}${check ? ", its check passed" : ""}`);
  }
  return { landed, stop: null };
}
