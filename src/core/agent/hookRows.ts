/**
 * A card's rows: the transcript's calls (the record), completed by what the hooks and the
 * prompts said first. Pure: the same inputs always give the same rows.
 *
 * - A call the hooks announced that the transcript has not written yet gets its row at once
 *   (its PreToolUse), running or already ended (PostToolUse / PostToolUseFailure).
 * - A call the transcript still shows running whose hook says it ended shows it ended.
 * - Once the transcript has the call, its row is the transcript's; nothing is shown twice (one
 *   tool_use id, one row), and nothing is lost if a hook never comes.
 * - A call that waited for the user (a permission prompt, an approval) carries how long, so its
 *   running time starts when it was allowed; one whose prompt closed without it ever running and
 *   whose result is a rejection was denied (the CLI writes "No" at the prompt like Escape).
 */
import type { HookTool } from "../hooks/hookToolFeed";
import { isSubagentTool, toolLabel } from "./labels";
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
}

export interface CardRow extends ToolCall {
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
    const added: CardRow = {
      id: hook.id,
      name: hook.name,
      label: toolLabel(hook.name, hook.input),
      parent: parentOf(hook, rows, sources),
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

function applyWait(row: CardRow, wait: ToolWait | undefined): void {
  if (!wait) return;
  if (wait.until !== undefined) {
    const from = row.startedAt !== undefined && row.startedAt <= wait.since ? row.startedAt : wait.since;
    row.waitedMs = Math.max(0, wait.until - from);
    // The prompt closed and the call never ran, and its result is a rejection: it was denied.
    if (row.outcome === "interrupted" && !wait.ran) row.outcome = "denied";
  }
}

/**
 * A sub-agent's call goes under its Agent call: by the sub-agent's own link when known (its
 * .meta.json), else under the one sub-agent call running, else at the top.
 */
function parentOf(hook: HookTool, rows: readonly ToolCall[], sources: RowSources): string | null {
  if (hook.subagentId === null) return null;
  const linked = sources.parentOfSubagent(hook.subagentId);
  if (linked !== undefined) return linked;
  const running = rows.filter((r) => r.outcome === "running" && isSubagentTool(r.name));
  return running.length === 1 ? running[0]!.id : null;
}
