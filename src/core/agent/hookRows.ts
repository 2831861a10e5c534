/**
 * A card's rows: the transcript's calls (the record), completed by what the hooks and the
 * prompts said first. Pure: the same inputs always give the same rows.
 *
 * - A call the hooks announced that the transcript has not written yet gets its row at once
 *   (its PreToolUse), running or already ended (PostToolUse / PostToolUseFailure).
 * - A call the transcript still shows running whose hook says it ended shows it ended.
 * - Once the transcript has the call, its row is the transcript's; nothing is shown twice (one
 *   tool_use id, one row), and nothing is lost if a hook never comes.
 * - What the CLI's side queries announce never becomes a row. They are forked queries (the away
 *   summary of CLI 2.1.330 asks the model with the conversation's tools while the status file says
 *   idle, then refuses every call and writes nothing): their hooks carry an `agent_id` but no
 *   `agent_type` (the feed drops those), and as a second guard a sub-agent's call gets no row when
 *   no sub-agent runs, nor when it was first heard while the process was idle outside a background
 *   sub-agent.
 * - A call whose prompt is open is `waiting` (for you), not running: nothing runs until it is allowed.
 * - A call that waited for the user (a permission prompt, an approval) carries how long, so its
 *   running time starts when it was allowed; one whose prompt closed without it ever running and
 *   whose result is a rejection was denied (older CLIs write "No" at the prompt like Escape), and
 *   a denied call carries no wait: it never ran, so there is no running time to set apart.
 */
import type { HookTool } from "../hooks";
import { isSubagentTool, toolWords } from "../labels";
import type { ToolCall } from "./toolCalls";

/** A prompt that was shown for a call: since when, until when (once answered), and whether it then ran. */
export interface ToolWait {
  since: number;
  until?: number;
  /** A hook said it ran after the prompt (PostToolUse / PostToolUseFailure). */
  ran?: boolean;
}

export interface RowSources {
  /** The agent's current session: hook calls of other sessions are not shown. */
  sessionId: string;
  hookTools: readonly HookTool[];
  waits: ReadonlyMap<string, ToolWait>;
  /** The Agent/Task call that runs a sub-agent (by the hook input's agent_id), when known. */
  parentOfSubagent(subagentId: string): string | undefined;
  /**
   * The agent is idle: its status file says so when there is one (the fastest truthful source of
   * the process state), else its transcript's turn is over.
   */
  idle: boolean;
  /**
   * Since when the status file says the process is idle (ms since the epoch, the CLI's clock;
   * -Infinity when it does not say since when). Undefined: busy, or no status file.
   */
  idleSince?: number;
  /**
   * The status file says the process waits on a permission prompt. The card may not hold the
   * prompt itself (after a window reload, or with no panel to relay it to): the one call that can
   * be asking then waits for you all the same (shownRows.ts).
   */
  waitingOnPermission?: boolean;
}

export type RowOutcome = ToolCall["outcome"] | "waiting";

export interface CardRow extends Omit<ToolCall, "outcome"> {
  outcome: RowOutcome;
  /** ms it waited for the user before it ran (set once the prompt was answered). */
  waitedMs?: number;
}

export function cardRows(transcriptRows: readonly ToolCall[], sources: RowSources): CardRow[] {
  const rows: CardRow[] = transcriptRows.map((row) => ({ ...row }));
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const hook of sources.hookTools) {
    if (hook.sessionId !== sources.sessionId) continue;
    const row = byId.get(hook.id);
    if (row) {
      if (row.outcome === "running" && hook.outcome !== undefined) {
        row.outcome = hook.outcome;
        row.endedAt = hook.endedAt;
      }
      continue;
    }
    const parent = parentOf(hook, rows, sources);
    if (parent === undefined) continue;
    // A sub-agent's call first heard while the process was idle is a side query's, unless it is
    // under a background sub-agent (those run while their parent is idle). The main thread's own
    // calls are never held back (a stale "idle" read must not delay a row): the idle rule ends them.
    if (hook.subagentId !== null && announcedWhileIdle(hook, sources.idleSince) && byId.get(parent ?? "")?.background !== true) continue;
    const added: CardRow = {
      id: hook.id,
      name: hook.name,
      ...toolWords(hook.name, hook.input),
      parent,
      outcome: hook.outcome ?? "running",
      background: hook.background === true,
      startedAt: hook.startedAt ?? hook.endedAt,
      endedAt: hook.endedAt,
    };
    rows.push(added);
    byId.set(added.id, added);
  }
  for (const row of rows) applyWait(row, sources.waits.get(row.id));
  return rows;
}

/** First heard after the process went idle: no turn ran then, so a side query of the CLI asked for it. */
function announcedWhileIdle(hook: HookTool, idleSince: number | undefined): boolean {
  if (idleSince === undefined) return false;
  return (hook.startedAt ?? hook.endedAt ?? Number.POSITIVE_INFINITY) >= idleSince;
}

function applyWait(row: CardRow, wait: ToolWait | undefined): void {
  if (!wait) return;
  if (wait.until === undefined) {
    // Its prompt is up: nothing runs until the user answers.
    if (row.outcome === "running") row.outcome = "waiting";
    return;
  }
  // The prompt closed and the call never ran, and its result is a rejection: it was denied.
  if (row.outcome === "interrupted" && !wait.ran) row.outcome = "denied";
  if (row.outcome === "denied") return;
  const from = row.startedAt !== undefined && row.startedAt <= wait.since ? row.startedAt : wait.since;
  row.waitedMs = Math.max(0, wait.until - from);
}

/**
 * A sub-agent's call goes under its Agent call: by the sub-agent's own link when known (its
 * .meta.json), else under the one sub-agent call running, else at the top (null) when several
 * run. When none runs, undefined: no sub-agent can have made the call (a forked side query's hooks
 * carry an agent_id of their own), so it gets no row.
 */
function parentOf(hook: HookTool, rows: readonly CardRow[], sources: RowSources): string | null | undefined {
  if (hook.subagentId === null) return null;
  const linked = sources.parentOfSubagent(hook.subagentId);
  if (linked !== undefined) return linked;
  const running = rows.filter((r) => r.outcome === "running" && isSubagentTool(r.name));
  if (running.length === 0) return undefined;
  return running.length === 1 ? running[0]!.id : null;
}
