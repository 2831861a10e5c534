/**
 * Settling a race: Pick one member → the existing Merge… flow for its worktree (predicted, the
 * commit message proposed from the race's task, confirmed); once merged, each other member whose
 * worktree is still there is offered for removal with Remove…'s own words — exactly what would be
 * lost — and removed only on a yes. "Keep" (or Escape) keeps its worktree and branch; "Commit to
 * its branch, remove the folder" keeps its work as a commit on its branch (nothing lost) and frees
 * the folder; a removal deletes the branch only when merged, so unmerged commits stay on it.
 */
import { vscode } from "../api";
import { harmlessFirst } from "../harmlessFirst";
import type { AgentManager } from "../../agents/agent/agentManager";
import type { Log } from "../../agents/ports";
import type { RaceBook } from "../../agents/races/raceBook";
import type { RaceFigures } from "../../agents/races/raceFigures";
import type { WorktreeInfo } from "../../core/git";
import type { CardReader } from "../../agents/cards/cardStore";
import { lossOf, removalCheck, removeWorktree } from "../../core/git";
import { commitWork, memberBranch, type MemberFacts, memberPath, picked, pickProblem, type Race, type RaceMember, removalOffers } from "../../core/races";
import { isInside } from "../../core/util";
import { type AgentRef, closingForRemoval, type Deps as WorktreeDeps, merge, removalQuestion, tellRemoval } from "../worktrees/worktreeCommands";

export interface SettleDeps {
  book: RaceBook;
  manager: Pick<AgentManager, "close" | "agentInfo">;
  /** The cards: names and statuses as the user sees them. */
  agents: CardReader;
  worktrees: WorktreeDeps;
  figures: RaceFigures;
  log: Log;
}

export const memberInfo = (race: Race, member: RaceMember): WorktreeInfo => ({
  path: memberPath(race, member),
  branch: memberBranch(member),
  base: race.base,
  repo: race.repo,
});

/**
 * The member's card as Merge… and Remove… take it: the one launched for it, else any card working
 * in its worktree (its session resumed under a new card after a restart, an agent started there by
 * hand) — a removal must never go on under a running agent. None: no agent works there.
 */
export function cardOf(deps: Pick<SettleDeps, "manager" | "agents">, race: Race, member: RaceMember): AgentRef | undefined {
  const views = deps.agents.cards();
  const folder = memberPath(race, member);
  const inFolder = (id: string) => {
    const cwd = deps.manager.agentInfo(id)?.cwd;
    return cwd !== undefined && isInside(cwd, folder);
  };
  const view = views.find((v) => member.agentId !== null && v.id === member.agentId) ?? views.find((v) => inFolder(v.id));
  return view ? { id: view.id, name: view.name, status: view.status } : undefined;
}

/** What git says of the member now (read again, not remembered: the user may have removed it by hand). */
function factsOf(deps: SettleDeps, race: Race) {
  return (member: RaceMember): MemberFacts => {
    const figures = deps.figures.of(race, member);
    return { worktree: figures?.worktree ?? true, branch: figures?.branch ?? true, agent: cardOf(deps, race, member) !== undefined };
  };
}

/** Races with a Pick under way: a second click (before the first's dialog shows) must not merge a second member. */
const picking = new Set<string>();

export async function pick(deps: SettleDeps, race: Race, name: string): Promise<void> {
  if (picking.has(race.id)) return;
  picking.add(race.id);
  try {
    // The race as it is now, not as the tab last showed it: another Pick may have landed.
    await pickNow(deps, deps.book.get(race.id) ?? race, name);
  } finally {
    picking.delete(race.id);
  }
}

async function pickNow(deps: SettleDeps, race: Race, name: string): Promise<void> {
  await deps.figures.readNow(race);
  const member = race.members.find((m) => m.name === name);
  const facts = factsOf(deps, race);
  const problem = member ? pickProblem(race, name, facts(member)) : `${name} is not in race ${race.task}`;
  if (problem || !member) {
    void vscode.window.showWarningMessage(`Cannot pick ${name}: ${problem}.`);
    return;
  }
  // Without a card (closed, or gone with a restart) it is merged as it stands; nothing is working in it.
  const agent = cardOf(deps, race, member) ?? { id: "", name: member.name, status: "exited" };
  if (!(await merge(deps.worktrees, agent, memberInfo(race, member), race.prompt))) return;
  const after = await deps.book.update(race.id, (r) => picked(r, name));
  deps.log.info(`race ${race.task}: picked ${name}, merged into ${race.base}`);
  if (!after) return;
  await deps.figures.readNow(after);
  for (const other of removalOffers(after, factsOf(deps, after))) await offerRemoval(deps, after, other);
}

/** One unpicked member: Remove…'s question, with Keep; removed only on a yes. */
async function offerRemoval(deps: SettleDeps, race: Race, member: RaceMember): Promise<void> {
  const info = memberInfo(race, member);
  const card = cardOf(deps, race, member);
  if (card && card.status !== "waiting" && card.status !== "exited") {
    void vscode.window.showWarningMessage(`${member.name} (not picked) is working: its worktree stays. Remove it once it is idle (Remove… on its card).`);
    return;
  }
  const check = await removalCheck(info.path, info.base);
  const loss = lossOf(check);
  const { question, go } = removalQuestion(info, loss, card !== undefined);
  const commit = `Commit to ${info.branch}, remove the folder`;
  // Keep first: the dialog's default (Enter) loses nothing; Escape (its Cancel) keeps too.
  const items = harmlessFirst("Keep", ...(check.uncommitted.length > 0 ? [commit] : []), go);
  const asked = `Race ${race.task}: ${race.picked} was merged. ${member.name} was not picked. ${question}`;
  const answer = await vscode.window.showWarningMessage(asked, { modal: true }, ...items);
  if (answer?.title !== go && answer?.title !== commit) {
    deps.log.info(`race ${race.task}: ${member.name} kept`);
    return;
  }
  if (card) {
    // The terminal first: nothing should be running in a folder that is about to go.
    closingForRemoval(info.path);
    deps.manager.close(card.id);
  }
  let agreed = loss;
  if (answer.title === commit) {
    await commitWork(info.path, `Race ${race.task}: ${member.name}'s work (not picked)`);
    // Only unmerged commits are left, and they stay on the branch: anything new since is not lost silently.
    const after = await removalCheck(info.path, info.base);
    if (after.uncommitted.length > 0) {
      void vscode.window.showWarningMessage(`Not removed: ${member.name} has new uncommitted changes (${lossOf(after)}).`);
      return;
    }
    // What is left are its commits, kept on its branch (the branch is never deleted unmerged).
    agreed = lossOf(after);
  }
  const outcome = await removeWorktree(info.repo, info.path, info.base, agreed);
  deps.log.info(`race ${race.task}: ${member.name}: ${JSON.stringify(outcome)}`);
  tellRemoval(info, outcome);
  deps.figures.request(race, member);
}
