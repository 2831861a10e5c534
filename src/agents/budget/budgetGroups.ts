/**
 * Budget groups: agents that share one cap — a race's members (a queue's items later). What a group
 * spent is every session any of its members was seen in (its current one, those it left with
 * /clear, those a closed member left behind), each at the most it was seen to spend: a member cannot
 * bring the group's sum down by moving to a new session, closing, or rewriting its transcript. What
 * it holds is saved with the budget's state, so a reload keeps a paused race paused before the
 * members' transcripts are read again (and a closed member's sessions are not read again at all).
 */
import { type BudgetSettings, dollars, type GroupInput, type GroupLabel, type Spend } from "../../core/budget";
import type { Disposable } from "../../core/util";

export interface BudgetGroup extends GroupLabel {
  /** Stable across reloads, e.g. "race:<race id>". */
  id: string;
  /** Its agents, closed ones included (agent ids are never reused). */
  members: readonly string[];
}

/** Where groups come from (the race book; a queue later). */
export interface BudgetGroupSource {
  groupOf(agentId: string): BudgetGroup | undefined;
  groups(): readonly BudgetGroup[];
  /** These agents' groups may have changed (a race started, a member joined). */
  onDidChange(listener: (agentIds: string[]) => void): Disposable;
}

/** Group id → session id → USD, as saved. */
export type SavedGroups = Record<string, Record<string, number>>;

/** Groups kept (the newest): a race a day is years of them. */
const MAX_GROUPS = 200;
/**
 * Sessions kept one by one per group; beyond it the oldest a member has left (by /clear, or closing)
 * is folded into one sum, never dropped. A member's current session is never folded: it may still
 * grow. (A member resuming a folded session counts it twice: too much, never too little.)
 */
const MAX_SESSIONS = 100;
const EARLIER = "(earlier sessions)";

/** The groups (from their source) and what each spent. */
export class BudgetGroups {
  private readonly groups = new Map<string, Map<string, Spend>>();
  /** Group id → member → its current session (not folded). */
  private readonly current = new Map<string, Map<string, string>>();
  private changed = false;
  private source: BudgetGroupSource | undefined;

  constructor(saved?: SavedGroups) {
    for (const [groupId, sessions] of Object.entries(saved ?? {})) {
      this.groups.set(groupId, new Map(Object.entries(sessions).map(([id, usd]) => [id, { usd, complete: true }])));
    }
  }

  follow(source: BudgetGroupSource): void {
    this.source = source;
  }

  of(agentId: string): BudgetGroup | undefined {
    return this.source?.groupOf(agentId);
  }

  find(groupId: string): BudgetGroup | undefined {
    return this.source?.groups().find((g) => g.id === groupId);
  }

  /** The agents and every agent sharing a group with one of them. */
  withMates(agentIds: string[]): string[] {
    const all = new Set(agentIds);
    for (const id of agentIds) for (const mate of this.of(id)?.members ?? []) all.add(mate);
    return [...all];
  }

  /** The group for the pause rule, after `readMember` noted each member's spend now (a closed one's were noted already). */
  input(group: BudgetGroup, capUsd: number | null, readMember: (agentId: string) => void): GroupInput {
    for (const id of group.members) readMember(id);
    return { kind: group.kind, name: group.name, spend: this.total(group.id), capUsd };
  }

  /** An agent's session spent `spend`: kept for its group when it is more than was seen of it. */
  note(agentId: string, sessionId: string, spend: Spend): void {
    const groupId = this.of(agentId)?.id;
    if (groupId === undefined) return;
    const current = this.current.get(groupId) ?? new Map<string, string>();
    this.current.set(groupId, current.set(agentId, sessionId));
    let sessions = this.groups.get(groupId);
    if (!sessions) {
      sessions = new Map();
      this.groups.set(groupId, sessions);
      for (const old of [...this.groups.keys()].slice(0, Math.max(0, this.groups.size - MAX_GROUPS))) {
        this.groups.delete(old);
        this.current.delete(old);
      }
    }
    const before = sessions.get(sessionId);
    if (before && (before.usd > spend.usd || (before.usd === spend.usd && before.complete === spend.complete))) return;
    sessions.set(sessionId, spend);
    if (sessions.size > MAX_SESSIONS + (sessions.has(EARLIER) ? 1 : 0)) this.foldOldest(sessions, new Set(current.values()));
    this.changed = true;
  }

  /** All its sessions together; undefined when none was seen. */
  private total(groupId: string): Spend | undefined {
    const sessions = this.groups.get(groupId);
    if (!sessions || sessions.size === 0) return undefined;
    let usd = 0;
    let complete = true;
    for (const spend of sessions.values()) {
      usd += spend.usd;
      complete &&= spend.complete;
    }
    return { usd, complete };
  }

  /** What to save, when something changed since the last call. */
  takeChanges(): SavedGroups | undefined {
    if (!this.changed) return undefined;
    this.changed = false;
    return Object.fromEntries([...this.groups].map(([groupId, sessions]) => [groupId, Object.fromEntries([...sessions].map(([id, s]) => [id, s.usd]))]));
  }

  private foldOldest(sessions: Map<string, Spend>, current: ReadonlySet<string>): void {
    const oldest = [...sessions.keys()].find((id) => id !== EARLIER && !current.has(id));
    if (oldest === undefined) return;
    const folded = sessions.get(EARLIER);
    const gone = sessions.get(oldest)!;
    sessions.delete(oldest);
    sessions.set(EARLIER, { usd: (folded?.usd ?? 0) + gone.usd, complete: (folded?.complete ?? true) && gone.complete });
  }
}

/** Saved groups read back as untrusted: what is not a sane spend is dropped. */
export function readSavedGroups(value: unknown): SavedGroups | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const out: SavedGroups = {};
  for (const [groupId, sessions] of Object.entries(value as Record<string, unknown>).slice(-MAX_GROUPS)) {
    if (groupId.length > 200 || typeof sessions !== "object" || sessions === null || Array.isArray(sessions)) continue;
    const kept = Object.entries(sessions as Record<string, unknown>).filter(
      ([id, usd]) => id.length <= 200 && typeof usd === "number" && Number.isFinite(usd) && usd >= 0 && usd < 1e9,
    );
    out[groupId] = Object.fromEntries(kept.slice(-(MAX_SESSIONS + 1))) as Record<string, number>;
  }
  return out;
}

/** The card's line of it: "race fix-title: $0.40 of $0.50" (or "(no cap on this race)"). */
export function groupLine(group: GroupInput): string {
  return `${groupSpent(group)} ${group.capUsd === null ? `(no cap on this ${group.kind})` : `of ${dollars(group.capUsd)}`}`;
}

/** "race fix-title: $0.40": what its members spent, without the cap. */
export function groupSpent(group: GroupInput): string {
  return `${group.kind} ${group.name}: ${group.spend ? dollars(group.spend.usd) : "$0.00"}`;
}

/** The setting that caps each group of a kind unless one is set on it (a new kind, e.g. a queue, is asked for here by the compiler). */
export function settingCapOf(kind: GroupLabel["kind"], settings: BudgetSettings): number | null {
  switch (kind) {
    case "race":
      return settings.perRaceUsd;
  }
}
