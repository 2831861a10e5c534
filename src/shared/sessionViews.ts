/**
 * The Sessions view's rows in the one protocol (protocol.ts re-exports them; the page's messages
 * are in protocols/sessions.ts): one past or followed session, its figures and what it can do.
 */

/** One session in the Sessions view. Figures are null until the session has been read whole. */
export interface SessionRowView {
  sessionId: string;
  /** The CLI's title (/rename or its own), else the first prompt, else "(no prompt)". */
  title: string;
  /** The first prompt, when the title is something else. */
  firstPrompt: string | null;
  /** Lower-case text the filter searches: title and prompts. */
  search: string;
  startedAt: number | null;
  lastActiveAt: number | null;
  turns: number | null;
  activeMs: number | null;
  filesEdited: number | null;
  tokens: number | null;
  costUsd: number | null;
  /** The card following it now, e.g. "Agent #2". */
  followedBy: string | null;
  /** The worktree it ran in ("fix-login"), for sessions of a worktree. */
  worktree: string | null;
  /** "Usage limit reached — …" when its last turn was stopped by one. */
  limit: string | null;
  /** The race its worktree was made for (the list groups a race's sessions), e.g. "fix-title". */
  race: string | null;
  /** Why Resume cannot work (the folder it ran in is gone: Claude Code finds a session by its folder); null: it can. */
  cannotResume?: string | null;
}
