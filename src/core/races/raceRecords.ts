/**
 * Races as they are kept (VS Code's workspace state): read back leniently — a record written by
 * another version, or by hand, keeps what is valid and drops the rest — so a reload or a restart
 * finds the races it left.
 */
import { isPlainRef, worktreeNameProblem } from "../git";
import { visibleText } from "../util";
import type { CheckResult, Race, RaceMember } from "./race";

const isString = (v: unknown): v is string => typeof v === "string";
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function member(raw: unknown): RaceMember | undefined {
  // The name becomes a path and a branch: only what a worktree name may be.
  if (!isObject(raw) || !isString(raw.name) || worktreeNameProblem(raw.name) || !isNumber(raw.number)) return undefined;
  const agentId = isString(raw.agentId) ? raw.agentId : null;
  // Not sure it was asked (a record from before this was kept): taken as asked, so never typed again.
  const asked = raw.asked === false ? false : true;
  const kept = { name: raw.name, number: raw.number, model: isString(raw.model) ? raw.model : null, agentId, asked };
  // Words shown on its card: bounded, and only what reads as typed (a hand-edited record may hold anything).
  return isString(raw.notStarted) ? { ...kept, notStarted: visibleText(raw.notStarted).slice(0, 300) } : kept;
}

function check(raw: unknown): CheckResult | undefined {
  if (!isObject(raw) || !isNumber(raw.durationMs) || !isNumber(raw.finishedAt)) return undefined;
  const exitCode = isNumber(raw.exitCode) ? raw.exitCode : null;
  return { exitCode, durationMs: raw.durationMs, finishedAt: raw.finishedAt, tree: isString(raw.tree) ? raw.tree : null };
}

export function parseRace(raw: unknown): Race | undefined {
  if (!isObject(raw) || !isString(raw.id) || !isString(raw.task) || !isString(raw.prompt) || !isString(raw.repo)) return undefined;
  // The base goes to git as an argument: never something it could take for an option or a range.
  if (!isString(raw.base) || !isPlainRef(raw.base) || !Array.isArray(raw.members)) return undefined;
  const members = raw.members.map(member);
  if (members.length === 0 || members.some((m) => m === undefined)) return undefined;
  const checks: Record<string, CheckResult> = {};
  if (isObject(raw.checks)) {
    for (const [name, value] of Object.entries(raw.checks)) {
      const result = check(value);
      if (result && members.some((m) => m!.name === name)) checks[name] = result;
    }
  }
  const pickedName = isString(raw.picked) && members.some((m) => m!.name === raw.picked) ? raw.picked : null;
  return {
    id: raw.id,
    task: raw.task,
    prompt: raw.prompt,
    repo: raw.repo,
    base: raw.base,
    // A commit id goes to git too: hex only.
    commit: isString(raw.commit) && /^[0-9a-f]{7,64}$/.test(raw.commit) ? raw.commit : null,
    startedAt: isNumber(raw.startedAt) ? raw.startedAt : 0,
    members: members as RaceMember[],
    picked: pickedName,
    checks,
  };
}

export function parseRaces(raw: unknown): Race[] {
  if (!Array.isArray(raw)) return [];
  const seen = new Set<string>();
  const out: Race[] = [];
  for (const item of raw) {
    const race = parseRace(item);
    if (race && !seen.has(race.id)) {
      seen.add(race.id);
      out.push(race);
    }
  }
  return out;
}
