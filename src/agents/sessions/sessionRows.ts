/**
 * A Sessions view row from a session's index entry: its title (the CLI's, else its first prompt),
 * its figures once it has been read whole, and the card following it now. A session a card follows
 * shows the card's own figures: the index's reading of its file is another reading, taken earlier
 * (kept while the main file is unchanged, though its sub-agents' files grew), and a row that
 * disagreed with the card beside it was seen (issue 33). Pure.
 */
import type { SessionEntry } from "../../core/sessions";
import { estimateCost, limitMessage, tokenCount, totalTokens } from "../../core/usage";
import type { SessionRowView } from "../../shared/protocol";

/** The text the filter searches, at most this long. */
const SEARCH_CHARS = 4000;

/** What a card shows of its whole session, in the row's terms: tokens (all four kinds summed), estimated cost, files edited. */
export interface CardFigures {
  tokens: number;
  costUsd: number;
  filesEdited: number;
}

export interface RowContext {
  /** The agent following a session now, by session id. */
  followedBy(sessionId: string): string | undefined;
  /** The worktree a project folder belongs to, if any ("fix-login"). */
  worktreeOf(projectDir: string): string | undefined;
  /** The race a worktree was made for, if any (its task, "fix-title"). */
  raceOf?(worktree: string): string | undefined;
  /** The figures of the card following a session, as that card shows them; undefined: no card has read it. */
  cardFigures?(sessionId: string): CardFigures | undefined;
  /** The folder is on disk (where `claude --resume` must run). Absent: not checked. */
  folderExists?(path: string): boolean;
  now: number;
}

/** Why Resume cannot work for a session that ran in `cwd` and no card follows, or null (Show, or Resume, works). */
function cannotResume(cwd: string | undefined, worktree: string | null, followed: boolean, context: RowContext): string | null {
  if (followed || cwd === undefined || !context.folderExists || context.folderExists(cwd)) return null;
  const what = worktree ? `its worktree ${worktree}` : "the folder it ran in";
  return `${what} is gone (${cwd}): Claude Code finds a session by its folder. Its transcript is still readable.`;
}

export function sessionRow(entry: SessionEntry, context: RowContext): SessionRowView {
  const { glance, digest } = entry;
  const firstPrompt = digest?.firstPrompt ?? glance.firstPrompt ?? null;
  const title = digest?.title ?? glance.title ?? firstPrompt ?? "(no prompt)";
  const card = context.cardFigures?.(glance.sessionId);
  const tokens = digest ? totalTokens(digest.usage) : undefined;
  const worktree = context.worktreeOf(entry.projectDir) ?? null;
  const search = [title, firstPrompt ?? "", ...(digest?.prompts ?? [])].join("\n").toLowerCase().slice(0, SEARCH_CHARS);
  return {
    sessionId: glance.sessionId,
    title,
    firstPrompt: firstPrompt !== title ? firstPrompt : null,
    search,
    startedAt: glance.startedAt ?? null,
    lastActiveAt: glance.lastActiveAt ?? entry.mtimeMs,
    turns: digest?.turns ?? null,
    activeMs: digest?.activeMs ?? null,
    filesEdited: card?.filesEdited ?? digest?.filesEdited ?? null,
    tokens: card?.tokens ?? (tokens ? tokenCount(tokens) : null),
    costUsd: card?.costUsd ?? (digest ? estimateCost(digest.usage).usd : null),
    followedBy: context.followedBy(glance.sessionId) ?? null,
    cannotResume: cannotResume(digest?.cwd ?? glance.cwd, worktree, context.followedBy(glance.sessionId) !== undefined, context),
    worktree,
    race: (worktree && context.raceOf?.(worktree)) || null,
    limit: digest?.limit ? limitMessage(digest.limit, context.now) : null,
  };
}
