/** The reducers of the Sessions list and the session reader, and the word filter both use. */
import type { SessionItemView, SessionRowView } from "../../src/shared/protocol";
import type { ReaderPush } from "../../src/shared/protocols/reader";
import type { SessionsPush } from "../../src/shared/protocols/sessions";

/** The Sessions view: the rows, newest first, and how many are still being read whole. */
export interface SessionsState {
  sessions: SessionRowView[];
  indexing: number;
  loaded: boolean;
}

export const initialSessions: SessionsState = { sessions: [], indexing: 0, loaded: false };

const newestFirst = (a: SessionRowView, b: SessionRowView) => (b.lastActiveAt ?? 0) - (a.lastActiveAt ?? 0);

export function reduceSessions(state: SessionsState, message: SessionsPush): SessionsState {
  if (message.type === "sessionsList") return { sessions: [...message.sessions].sort(newestFirst), indexing: message.indexing, loaded: true };
  if (message.type !== "sessionRow") return state;
  const at = state.sessions.findIndex((s) => s.sessionId === message.session.sessionId);
  const sessions = at < 0 ? [...state.sessions, message.session] : state.sessions.map((s, i) => (i === at ? message.session : s));
  return { ...state, sessions: sessions.sort(newestFirst), indexing: message.indexing };
}

/** The items whose text (lower-cased by `textOf`) holds every word of the filter, case-insensitively. */
export function filterByWords<T>(items: readonly T[], filter: string, textOf: (item: T) => string): T[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...items];
  return items.filter((item) => {
    const text = textOf(item);
    return words.every((w) => text.includes(w));
  });
}

/** Sessions whose title or prompts hold every word of the filter. */
export function filterSessions(sessions: readonly SessionRowView[], filter: string): SessionRowView[] {
  return filterByWords(sessions, filter, (s) => s.search);
}

/** One session in the reader. */
export interface ReaderState {
  title: string;
  items: SessionItemView[];
  done: boolean;
  /** Why Resume cannot work (said instead of offering it), or null. */
  cannotResume: string | null;
}

export const initialReader: ReaderState = { title: "", items: [], done: false, cannotResume: null };

export function reduceReader(state: ReaderState, message: ReaderPush): ReaderState {
  if (message.type !== "sessionItems") return state;
  let items = message.reset ? [...message.items] : [...state.items, ...message.items];
  if (message.updates.length > 0) {
    const ended = new Map(message.updates.map((u) => [u.id, u]));
    items = items.map((item) => {
      const update = item.kind === "tool" ? ended.get(item.id) : undefined;
      // Its words once it ended come with it: a finished command reads "npm test", not "Running: npm test".
      return update && item.kind === "tool" ? { ...item, outcome: update.outcome, label: update.label ?? item.label } : item;
    });
  }
  return { title: message.title, items, done: message.done, cannotResume: message.cannotResume ?? null };
}
