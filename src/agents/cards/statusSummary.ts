/**
 * What the status bar says about the agents, from the cards' own statuses (the one status truth,
 * displayStatus.ts): "2 working · 1 needs you", "0 working · 2 need you". Idle agents are neither: their turn is over and
 * nothing waits on the user. A usage limit that stopped an agent is said after the counts, naming the agents it stopped. The
 * branch of the agent in front (its terminal focused) when it works in a worktree of its own: the shared checkout's branch is
 * VS Code's own git item already. Pure, for tests.
 */
import type { CardView, NeedsYouView } from "../../shared/protocol";

export interface StatusSummary {
  text: string;
  tooltip: string;
  working: number;
  needYou: number;
  /** A usage or rate limit stops an agent now: the item stands out. */
  limited: boolean;
}

export type SummarizedCard = Pick<CardView, "name" | "status" | "needsYou" | "limit"> & Partial<Pick<CardView, "focused" | "worktree" | "budget">>;

const NEED_TEXT: Record<NeedsYouView["kind"], string> = {
  permission: "a permission prompt",
  approval: "an approval",
  review: "a diff to review",
  question: "a question",
  dialog: "a dialog in its terminal",
};

/** `budgetTotal`: all agents' burn rate and today's spend (budgetBook.ts summary), for the tooltip. */
export function statusSummary(agents: readonly SummarizedCard[], budgetTotal?: string): StatusSummary {
  const working = agents.filter((a) => a.status === "active" || a.status === "compacting");
  const needYou = agents.filter((a) => a.status === "needsYou");
  // The same shape whatever the counts, so it reads at a glance; the verb agrees with its count.
  const counts = `${working.length} working · ${needYou.length} ${needYou.length === 1 ? "needs" : "need"} you`;
  // A pause at the budget stops an agent as a usage limit does: said the same way, whole in the tooltip, short in the bar.
  const limited = agents.flatMap((a) =>
    a.limit
      ? [{ name: a.name, whole: a.limit, short: shortLimit(a.limit) }]
      : a.budget?.paused
        ? [{ name: a.name, whole: a.budget.paused, short: "paused at budget" }]
        : [],
  );
  const inFront = agents.find((a) => a.focused && a.worktree)?.worktree?.branch;
  // Short words, so the status bar never cuts them ("… 02:00 · wor…"): the whole limit and branch are in the tooltip.
  const text = [counts, ...(limited.length > 0 ? [`$(watch) ${limited[0]!.short}`] : []), ...(inFront ? [`$(git-branch) ${shortBranch(inFront)}`] : [])].join(
    " · ",
  );
  const lines = [
    ...limited.map((a) => `${a.name}: ${a.whole}`),
    ...needYou.map((a) => `${a.name} needs you: ${NEED_TEXT[a.needsYou?.kind ?? "dialog"]}`),
    ...working.map((a) => `${a.name} is ${a.status === "compacting" ? "compacting" : "working"}`),
  ];
  const idle = agents.length - working.length - needYou.length;
  if (idle > 0) lines.push(`${idle} other${idle === 1 ? "" : "s"} idle or stopped`);
  lines.push(...agents.flatMap((a) => (a.worktree ? [`${a.name} works on branch ${a.worktree.branch}`] : [])));
  lines.push(...agents.flatMap((a) => (a.budget?.rate && !a.budget.paused ? [`${a.name}: ${[a.budget.rate, a.budget.eta].filter(Boolean).join(" · ")}`] : [])));
  if (budgetTotal) lines.push(`Budget: ${budgetTotal}`);
  return {
    text,
    tooltip: `Arcadia agents\n${lines.join("\n")}\nClick to show the panel.`,
    working: working.length,
    needYou: needYou.length,
    limited: limited.length > 0,
  };
}

/** "Usage limit reached — resets at 14:00" → "until 14:00"; a limit with no reset time → "limit". */
function shortLimit(limit: string): string {
  const reset = /resets (?:at )?(.+)$/.exec(limit)?.[1];
  return reset ? `until ${reset}` : "limit";
}

/** At most BRANCH_CHARS characters: a long branch keeps its start and its end ("feature/…-login"). */
const BRANCH_CHARS = 24;
function shortBranch(branch: string): string {
  if (branch.length <= BRANCH_CHARS) return branch;
  const tail = 9;
  return `${branch.slice(0, BRANCH_CHARS - tail - 1)}…${branch.slice(-tail)}`;
}
