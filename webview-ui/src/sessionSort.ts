import type { SessionRowView } from "../../src/shared/protocol";

/** The columns the Sessions list sorts by (its headers). */
export type SessionSortKey = "title" | "followedBy" | "lastActiveAt" | "startedAt" | "turns" | "activeMs" | "filesEdited" | "tokens" | "costUsd";

export interface SessionSort {
  key: SessionSortKey;
  descending: boolean;
}

/** Newest first, as the list opens. */
export const DEFAULT_SORT: SessionSort = { key: "lastActiveAt", descending: true };

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
      const order = typeof x === "string" && typeof y === "string" ? x.localeCompare(y, undefined, { sensitivity: "base", numeric: true }) : Number(x) - Number(y);
      if (order !== 0) return sort.descending ? -order : order;
    }
    return (b.lastActiveAt ?? 0) - (a.lastActiveAt ?? 0);
  });
}
