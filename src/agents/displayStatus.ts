/**
 * The status a card shows. The CLI's live status file (through the process monitor) is exact and
 * wins whenever it is known; the transcript is the fallback (hand-off lag, no status file, a CLI
 * too old to write one). Pure, so every combination is tested without processes.
 */
import type { AgentState } from "../core/agent/agentState";
import type { AgentStatusView } from "../shared/protocol";
import type { ClaudeProcessState } from "./ports";

export interface DisplayStatus {
  status: AgentStatusView;
  source: "process" | "transcript";
}

export function displayStatus(transcript: AgentState | undefined, process: ClaudeProcessState | undefined, exited: boolean): DisplayStatus {
  if (exited) return { status: "exited", source: "process" };
  if (process?.state === "running" && process.status !== undefined) {
    switch (process.status) {
      case "busy":
        return { status: "active", source: "process" };
      case "idle":
        return { status: "waiting", source: "process" };
      case "waiting":
        return { status: waitsOnPermission(process) ? "needsPermission" : "waiting", source: "process" };
    }
  }
  return { status: transcript?.status ?? "starting", source: "transcript" };
}

/** `waitingFor` names what the CLI waits on; a permission prompt is the one the panel answers. */
export function waitsOnPermission(process: ClaudeProcessState | undefined): boolean {
  return process?.state === "running" && process.status === "waiting" && /permission/i.test(process.waitingFor ?? "");
}
