/** What the process monitor reports about the `claude` under a terminal's shell, and when it changed. */
import type { ProcessInfo } from "./processTable";
import type { ClaudeStatus, LiveStatus } from "./statusFile";

/** The `claude` process under a terminal's shell. */
export type ClaudeProcessState =
  /** No `claude` under this shell: not started yet, exited, killed — or the shell itself is gone. */
  | { state: "none" }
  | {
      state: "running";
      pid: number;
      /** From the process table, in the CLI's `procStart` form. */
      startTime?: string;
      /** The rest comes from `<config>/sessions/<pid>.json`, and is undefined until the CLI
       * writes it (or when this CLI version writes none). */
      sessionId?: string;
      status?: LiveStatus;
      /** `idle` with a background Bash task still running (the file said `shell`). */
      backgroundShell?: boolean;
      waitingFor?: string;
      cwd?: string;
      name?: string;
      /** When the CLI last changed `status` (ms since the epoch, the CLI's clock). */
      statusUpdatedAt?: number;
    };

/** A running claude as the process table and its status file (`s`, if believed) describe it. */
export function runningState(p: ProcessInfo, s: ClaudeStatus | undefined): ClaudeProcessState {
  const state: ClaudeProcessState = { state: "running", pid: p.pid };
  if (p.startTime !== undefined) state.startTime = p.startTime;
  if (s?.sessionId !== undefined) state.sessionId = s.sessionId;
  if (s?.status !== undefined) state.status = s.status;
  if (s?.backgroundShell) state.backgroundShell = true;
  if (s?.waitingFor !== undefined) state.waitingFor = s.waitingFor;
  if (s?.cwd !== undefined) state.cwd = s.cwd;
  if (s?.name !== undefined) state.name = s.name;
  if (s?.statusUpdatedAt !== undefined) state.statusUpdatedAt = s.statusUpdatedAt;
  return state;
}

export function sameState(a: ClaudeProcessState, b: ClaudeProcessState): boolean {
  if (a.state !== b.state) return false;
  if (a.state === "none" || b.state === "none") return true;
  return (
    a.pid === b.pid &&
    a.startTime === b.startTime &&
    a.sessionId === b.sessionId &&
    a.status === b.status &&
    a.backgroundShell === b.backgroundShell &&
    a.waitingFor === b.waitingFor &&
    a.cwd === b.cwd &&
    a.name === b.name &&
    a.statusUpdatedAt === b.statusUpdatedAt
  );
}
