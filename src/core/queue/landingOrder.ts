/**
 * "Land finished work…": the order to merge finished tasks into a base that moves as each lands,
 * and where it stops — found before anything is merged, from predicted merges only (nothing in a
 * work tree, index or ref changes). Tasks that would conflict with the base as it is now go last;
 * of the others, those that would conflict with fewer of the rest land first (two tasks that
 * touch the same lines: the one that blocks fewer goes first, so more land), then in the order
 * they finished. The plan then follows the moving base task by task and stops at the first that
 * would conflict, naming its files; what follows it waits (Skip plans again without it).
 */

/** A finished task's work: the commit to merge (its branch tip, or a snapshot of its worktree). */
export interface Landable {
  id: string;
  commit: string;
}

export type SimulatedMerge = { clean: true; commit: string } | { clean: false; conflicts: string[] };

export interface MergeSimulator {
  /** Predicts merging `theirs` into `onto` (commits) without touching anything but the object store. */
  merge(onto: string, theirs: string): Promise<SimulatedMerge>;
  /** The files `theirs` changed since it left `base`: two tasks that share none cannot conflict, so only the others are predicted pairwise. */
  files(base: string, theirs: string): Promise<string[]>;
}

export interface LandingPlan {
  /** Merge these, in this order: each predicted clean onto the base with the ones before it merged. */
  order: string[];
  /** The first that would conflict once `order` is merged, with the files; null when all land. */
  stop: { id: string; conflicts: string[] } | null;
  /** Behind the stop, not planned yet. */
  waiting: string[];
}

export async function landingPlan(base: string, finished: readonly Landable[], simulate: MergeSimulator): Promise<LandingPlan> {
  const onBase = new Map<string, SimulatedMerge>();
  for (const task of finished) onBase.set(task.id, await simulate.merge(base, task.commit));
  const clean = finished.filter((t) => onBase.get(t.id)!.clean);
  const files = new Map<string, Set<string>>();
  for (const task of clean) files.set(task.id, new Set(await simulate.files(base, task.commit)));
  const blocked = new Map<string, number>(clean.map((t) => [t.id, 0]));
  for (const first of clean) {
    const landed = onBase.get(first.id) as { commit: string };
    for (const second of clean) {
      if (second.id === first.id || ![...files.get(second.id)!].some((f) => files.get(first.id)!.has(f))) continue;
      if (!(await simulate.merge(landed.commit, second.commit)).clean) blocked.set(first.id, blocked.get(first.id)! + 1);
    }
  }
  const rank = (t: Landable) => (onBase.get(t.id)!.clean ? blocked.get(t.id)! : Number.POSITIVE_INFINITY);
  const ranked = finished.map((t, i) => ({ t, i })).sort((a, b) => rank(a.t) - rank(b.t) || a.i - b.i);
  const order: string[] = [];
  let tip = base;
  for (let k = 0; k < ranked.length; k++) {
    const task = ranked[k]!.t;
    const merge = tip === base ? onBase.get(task.id)! : await simulate.merge(tip, task.commit);
    if (!merge.clean) return { order, stop: { id: task.id, conflicts: merge.conflicts }, waiting: ranked.slice(k + 1).map((r) => r.t.id) };
    order.push(task.id);
    tip = merge.commit;
  }
  return { order, stop: null, waiting: [] };
}
