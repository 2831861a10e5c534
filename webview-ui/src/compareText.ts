/** The compare tab's words for a race member: its changes, whether it merges, how its check went. */
import type { CompareCheckView, CompareMemberView } from "../../src/shared/protocol";
import { STATUS_TEXT } from "./agentStatus";
import { formatElapsed } from "../../src/shared/elapsed";

/** "1 file · +1 −1", "no changes", "counting…", "worktree removed", "merged into main" (picked, nothing since). */
export function changesText(member: CompareMemberView, base: string): string {
  if (member.phase === "removed" || member.phase === "branchKept") return "worktree removed";
  const c = member.changes;
  if (!c) return "counting…";
  if (c.files.length === 0) return member.phase === "picked" ? `merged into ${base}` : "no changes";
  return `${c.files.length} ${c.files.length === 1 ? "file" : "files"} · +${c.added} −${c.removed}`;
}

/**
 * What Pick would do: "merges cleanly into main", "conflicts with main in App.tsx, b.ts", "Pick
 * cannot merge it into main. <Pick's own reason>" (e.g. uncommitted changes in the main checkout),
 * or why it cannot be told.
 */
export function mergeText(member: CompareMemberView, base: string): string {
  const m = member.merge;
  if (!m) return "";
  if (m.kind === "clean") return member.changes?.files.length === 0 ? (member.phase === "picked" ? "" : "nothing to merge") : `merges cleanly into ${base}`;
  if (m.kind === "conflicts") return `conflicts with ${base} in ${m.files.join(", ")}`;
  if (m.kind === "blocked") return `Pick cannot merge it into ${base}. ${m.reason}`;
  return `merge cannot be predicted: ${m.reason}`;
}

const took = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : formatElapsed(ms));

/** "passed · exit 0 · 3.2 s", "failed · exit 1 · 40 ms", "running… 12s", "not run". */
export function checkText(check: CompareCheckView, now: number): string {
  switch (check.state) {
    case "notRun":
      return "not run";
    case "running":
      return `running… ${formatElapsed(Math.max(0, now - check.since))}`;
    default: {
      const code = check.exitCode === null ? "no exit code" : `exit ${check.exitCode}`;
      return `${check.state} · ${code} · ${took(check.durationMs)}${check.stale ? " · its files changed since" : ""}`;
    }
  }
}

/** "Agent #2 · Idle", "no agent (its card was closed)", "picked and merged". */
export function phaseText(member: CompareMemberView): string {
  switch (member.phase) {
    case "agent":
      return member.status ? `${member.agentName ?? "agent"} · ${STATUS_TEXT[member.status]}` : (member.agentName ?? "agent");
    case "noAgent":
      return "no agent: its card was closed";
    case "branchKept":
      return `worktree removed; branch ${member.branch} kept`;
    case "removed":
      return "removed";
    case "picked":
      return member.agentName ? `picked · ${member.agentName}` : "picked";
  }
}
