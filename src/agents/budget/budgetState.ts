/**
 * What of the budget survives a window reload and a restart (workspace state): each raised cap, by
 * the session it was raised for (an agent's figures are its session's, read again from the
 * transcript), a raise of today's cap, each group's cap (a race's, set on it) and what its
 * members' sessions spent (budgetGroups.ts). Read back as untrusted: a value that is not a sane cap
 * is dropped, never trusted.
 */
import { MAX_CAP_USD } from "../../core/budget";
import { readSavedGroups, type SavedGroups } from "./budgetGroups";
import { readSavedDay, type SavedDay } from "./daySpends";

export interface BudgetState {
  /** Session id → the cap raised to (USD). */
  raises: Record<string, number>;
  /** Today's cap raised to (USD), for the day it was raised. */
  dayRaise?: { day: string; capUsd: number };
  /**
   * Session id → what it had spent when last seen paused: after a reload it is paused from the
   * start, before its transcript is read again, and is never priced lower than that.
   */
  spent?: Record<string, number>;
  /** What each session spent today (daySpends.ts): closed agents still count for today's cap. */
  today?: SavedDay;
  /** Group id → its cap set from the race (Cap this race at…, Raise…); else the setting applies. */
  groupCaps?: Record<string, number>;
  /** What each group's members spent, by session. */
  groups?: SavedGroups;
}

/** Where it is kept (a memento's get/update). */
export interface BudgetStateStore {
  load(): unknown;
  save(state: BudgetState): void;
}

/** Raises kept (the newest): a session is short-lived, a few hundred is months of use. */
const MAX_RAISES = 500;

const isCap = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= MAX_CAP_USD;

export function readBudgetState(value: unknown): BudgetState {
  const state: BudgetState = { raises: {} };
  if (typeof value !== "object" || value === null) return state;
  const raw = value as Record<string, unknown>;
  if (typeof raw.raises === "object" && raw.raises !== null) {
    const entries = Object.entries(raw.raises as Record<string, unknown>).filter(([id, cap]) => id.length <= 200 && isCap(cap));
    for (const [id, cap] of entries.slice(-MAX_RAISES)) state.raises[id] = cap as number;
  }
  if (typeof raw.spent === "object" && raw.spent !== null) {
    const entries = Object.entries(raw.spent as Record<string, unknown>).filter(
      ([id, usd]) => id.length <= 200 && typeof usd === "number" && usd >= 0 && usd < 1e9,
    );
    if (entries.length > 0) state.spent = Object.fromEntries(entries.slice(-MAX_RAISES)) as Record<string, number>;
  }
  if (typeof raw.groupCaps === "object" && raw.groupCaps !== null) {
    const entries = Object.entries(raw.groupCaps as Record<string, unknown>).filter(([id, cap]) => id.length <= 200 && isCap(cap));
    if (entries.length > 0) state.groupCaps = Object.fromEntries(entries.slice(-MAX_RAISES)) as Record<string, number>;
  }
  const groups = readSavedGroups(raw.groups);
  if (groups) state.groups = groups;
  const today = readSavedDay(raw.today);
  if (today) state.today = today;
  const day = raw.dayRaise as Record<string, unknown> | undefined;
  if (day && typeof day.day === "string" && /^\d{4}-\d{2}-\d{2}$/.test(day.day) && isCap(day.capUsd)) state.dayRaise = { day: day.day, capUsd: day.capUsd };
  return state;
}

/** `state` with what a paused session spent, the oldest dropped past the bound. */
export function withPausedSpend(state: BudgetState, sessionId: string, usd: number): BudgetState {
  return { ...state, spent: newestLast(state.spent ?? {}, sessionId, usd) };
}

/** `state` with one more raise, the oldest dropped past the bound. */
export function withRaise(state: BudgetState, sessionId: string, capUsd: number): BudgetState {
  return { ...state, raises: newestLast(state.raises, sessionId, capUsd) };
}

/** `state` with a group's cap set, the oldest dropped past the bound. */
export function withGroupCap(state: BudgetState, groupId: string, capUsd: number): BudgetState {
  return { ...state, groupCaps: newestLast(state.groupCaps ?? {}, groupId, capUsd) };
}

/** `byId` with `id` set to `value` as its newest entry, at most MAX_RAISES kept (the oldest go). */
function newestLast(byId: Record<string, number>, id: string, value: number): Record<string, number> {
  const next = { ...byId };
  delete next[id];
  next[id] = value;
  const ids = Object.keys(next);
  for (const old of ids.slice(0, Math.max(0, ids.length - MAX_RAISES))) delete next[old];
  return next;
}
