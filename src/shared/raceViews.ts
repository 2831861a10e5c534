/**
 * The views of races (one task run on several agents) in the one protocol (protocol.ts re-exports
 * them; messages are defined there): a card's race tag and the compare tab's columns.
 */
import type { AgentStatusView } from "./agentStatusView";

/** The race a card belongs to (one task run on several agents): its overview line says "race: <task>". */
export interface RaceTagView {
  raceId: string;
  task: string;
  /** Its number in the race, 1-based, and how many agents run the race. */
  member: number;
  of: number;
  /** It is the one picked (and merged). */
  picked: boolean;
  /** Why its agent did not start (e.g. "its claude was not ready in time"): the card says so and offers Retry; null when it did. */
  notStarted: string | null;
}

/** A changed file of a race member against the base, as the compare view lists it. */
export interface CompareFileView {
  path: string;
  /** For a rename: its path at the base. */
  from?: string;
  status: "added" | "modified" | "deleted" | "renamed";
  added: number;
  removed: number;
  binary: boolean;
}

/** The result of the check command in one member's worktree. `stale`: its worktree changed since. */
export type CompareCheckView =
  | { state: "notRun" }
  | { state: "running"; since: number }
  | { state: "passed" | "failed"; exitCode: number | null; durationMs: number; finishedAt: number; stale: boolean };

/** One column of the compare view: one agent of the race. */
export interface CompareMemberView {
  /** Its worktree's name, `<task>-<n>`: what actions name. */
  name: string;
  number: number;
  branch: string;
  model: string | null;
  /** Its card, while it has one. */
  agentId: string | null;
  agentName: string | null;
  /**
   * `agent`: its card works in it; `noAgent`: the worktree is there, its card is not; `branchKept`:
   * the worktree was removed, its branch kept; `removed`: both gone; `picked`: chosen and merged.
   */
  phase: "agent" | "noAgent" | "branchKept" | "removed" | "picked";
  /** Its card's status (null without a card). */
  status: AgentStatusView | null;
  /** From every session in its worktree; null until read. */
  sessions: { turns: number; activeMs: number; tokens: number; costUsd: number; unpricedModels: string[] } | null;
  /** Against the base (committed, staged, unstaged and untracked alike); null until counted or when gone. */
  changes: { files: CompareFileView[]; added: number; removed: number } | null;
  /** Merging it into the base now, by Pick's own rule (core/git mergeVerdict), without touching anything: what Pick would do. */
  merge: { kind: "clean" } | { kind: "conflicts"; files: string[] } | { kind: "blocked"; reason: string } | { kind: "unavailable"; reason: string } | null;
  check: CompareCheckView;
  /** Its figures could not be read (said, not hidden). */
  problem: string | null;
  /** Why its agent did not start (its claude never became ready), while it has not been retried; else null. */
  notStarted: string | null;
}

/** A race as the compare tab shows it. */
export interface RaceCompareView {
  id: string;
  task: string;
  prompt: string;
  base: string;
  startedAt: number;
  picked: string | null;
  /** `arcadia.compare.check` (a user setting), or null when none is set. */
  checkCommand: string | null;
  /** What all its agents spent against the race's cap (arcadia.budget.perRace, or the one set on it). */
  budget: RaceBudgetView;
  members: CompareMemberView[];
}

/** "race fix-title: $0.40 of $0.50" (or "… (no cap on this race)"); `paused`: the cap is reached, every member is paused at it. */
export interface RaceBudgetView {
  spent: string;
  paused: boolean;
}
