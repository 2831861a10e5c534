/** The Sessions table's order by any column, and a race's sessions grouped under one heading. */
import type { SessionRowView } from "../../src/shared/protocol";

/** The columns the Sessions list sorts by (its headers). */
export type SessionSortKey = "title" | "followedBy" | "lastActiveAt" | "startedAt" | "turns" | "activeMs" | "filesEdited" | "tokens" | "costUsd";

export interface SessionSort {
  key: SessionSortKey;
  descending: boolean;
}

/** Newest first, as the list opens. */
export const DEFAULT_SORT: SessionSort = { key: "lastActiveAt", descending: true };

const KEYS: readonly SessionSortKey[] = ["title", "followedBy", "lastActiveAt", "startedAt", "turns", "activeMs", "filesEdited", "tokens", "costUsd"];

/** The sort kept in the tab's saved state (it is made again when the tab is shown again), or the default when there is none or it is not one. */
export function savedSort(saved: unknown): SessionSort {
  const sort = (saved as { sort?: { key?: unknown; descending?: unknown } } | null | undefined)?.sort;
  if (!sort || !KEYS.includes(sort.key as SessionSortKey) || typeof sort.descending !== "boolean") return DEFAULT_SORT;
  return { key: sort.key as SessionSortKey, descending: sort.descending };
}

/** Clicking a header: that column, its natural direction first (text A→Z, figures and dates largest first); again: the other way. */
export function nextSort(current: SessionSort, key: SessionSortKey): SessionSort {
  if (current.key === key) return { key, descending: !current.descending };
  return { key, descending: key !== "title" && key !== "followedBy" };
}

/**
 * The rows in that order; a row without the figure (not read yet) always last, whichever the
 * direction; ties newest first. Pure, a new array.
 */
export function sortSessions(rows: readonly SessionRowView[], sort: SessionSort): SessionRowView[] {
  const missing = (v: unknown) => v === null || v === undefined;
  return [...rows].sort((a, b) => {
    const x = a[sort.key];
    const y = b[sort.key];
    if (missing(x) !== missing(y)) return missing(x) ? 1 : -1;
    if (!missing(x)) {
      const order =
        typeof x === "string" && typeof y === "string" ? x.localeCompare(y, undefined, { sensitivity: "base", numeric: true }) : Number(x) - Number(y);
      if (order !== 0) return sort.descending ? -order : order;
    }
    return (b.lastActiveAt ?? 0) - (a.lastActiveAt ?? 0);
  });
}

/** A line of the table: a race's heading, or a session (`inRace`: under its race's heading). */
export type SessionLine = { kind: "race"; race: string; sessions: number } | { kind: "session"; session: SessionRowView; inRace: boolean };

/**
 * A race's sessions as one group: its heading where its first session falls in the order, then
 * all of them, in that order. Sessions of no race stay where they are. Pure.
 */
export function groupByRace(rows: readonly SessionRowView[]): SessionLine[] {
  const byRace = new Map<string, SessionRowView[]>();
  for (const row of rows) if (row.race) (byRace.get(row.race) ?? byRace.set(row.race, []).get(row.race)!).push(row);
  const lines: SessionLine[] = [];
  const placed = new Set<string>();
  for (const row of rows) {
    if (!row.race) lines.push({ kind: "session", session: row, inRace: false });
    else if (!placed.has(row.race)) {
      placed.add(row.race);
      const members = byRace.get(row.race)!;
      lines.push({ kind: "race", race: row.race, sessions: members.length });
      for (const session of members) lines.push({ kind: "session", session, inRace: true });
    }
  }
  return lines;
}
