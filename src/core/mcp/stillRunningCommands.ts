/**
 * Commands that outlive their call. Complete on an execute_command answers the agent at once with
 * the output so far and, by design, leaves the command running in the agent's commands terminal:
 * the call's row then says done while something it started still runs. This keeps those commands,
 * from the moment Complete answered until their process exits (or Stop ends it), so the card can
 * say "Completed early — still running" and offer Stop. Live state only, bounded.
 */
import { type Disposable, DisposableObject, Emitter } from "../util";
import type { TrackerChange } from "./toolCallTracker";

export interface StillRunningCommand {
  /** The command's id in its runner (the call's terminalId). */
  id: string;
  /** The call that started it (the card knows when that call was allowed to run). */
  callId?: string;
  agentId?: string;
  /** The transcript tool_use of the call that started it (its row), when the client named it. */
  toolUseId?: string;
  display: string;
  /** When its call started (ms since the epoch): the command has run since. */
  startedAt: number;
}

export interface CommandProcesses {
  whenEnded(id: string): Promise<void>;
  /** Ctrl+C to the command (then SIGKILL if it does not stop). */
  interrupt(id: string): void;
}

/** Far more than anyone leaves running; past it the oldest is no longer shown (it still runs). */
const MAX_STILL_RUNNING = 64;

export class StillRunningCommands extends DisposableObject {
  private readonly running = new Map<string, StillRunningCommand>();
  private readonly changed = this._register(new Emitter<string[]>());
  /** The agents whose commands left running changed. */
  readonly onDidChange = this.changed.event;

  constructor(
    tracker: { onDidChange(listener: (change: TrackerChange) => void): Disposable },
    private readonly processes: CommandProcesses,
  ) {
    super();
    this._register(
      tracker.onDidChange((change) => {
        if (change.type === "completedEarly") this.completedEarly(change.call);
      }),
    );
  }

  /** The agent's commands still running after their call was completed early, oldest first. */
  of(agentId: string): StillRunningCommand[] {
    return [...this.running.values()].filter((c) => c.agentId === agentId);
  }

  /** Stop from the card: Ctrl+C to the command. False if it is not one of these (any more). */
  stop(id: string): boolean {
    if (!this.running.has(id)) return false;
    this.processes.interrupt(id);
    return true;
  }

  override dispose(): void {
    super.dispose();
    this.running.clear();
  }

  private completedEarly(call: { id: string; terminalId?: string; agentId?: string; toolUseId?: string; display: string; startedAt: number }): void {
    const id = call.terminalId;
    if (id === undefined || this.running.has(id)) return;
    if (this.running.size >= MAX_STILL_RUNNING) this.forget(this.running.keys().next().value as string);
    this.running.set(id, { id, callId: call.id, agentId: call.agentId, toolUseId: call.toolUseId, display: call.display, startedAt: call.startedAt });
    this.fire(call.agentId);
    void this.processes.whenEnded(id).then(() => this.forget(id));
  }

  private forget(id: string): void {
    const command = this.running.get(id);
    if (!command || !this.running.delete(id)) return;
    this.fire(command.agentId);
  }

  private fire(agentId: string | undefined): void {
    if (agentId !== undefined) this.changed.fire([agentId]);
  }
}
