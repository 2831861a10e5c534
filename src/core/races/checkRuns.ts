/**
 * The user's check command (`arcadia.compare.check`, e.g. `npm test`) run in race members'
 * worktrees, only when asked (Run checks): at most one run per member at a time, each timed from
 * start to exit. The runner shows the output where the user can read it (VS Code: a terminal per
 * member); what is kept is how it ended, how long it took, and which files it ran on (the tree of
 * the worktree's snapshot: a worktree whose files changed since makes the result stale).
 */
import { DisposableObject, Emitter } from "../util";
import type { CheckResult } from "./race";

export interface CheckRunner {
  /** Starts `command` in `cwd` through the user's shell, its output shown under `label`. Rejects if it cannot start. */
  start(request: { command: string; cwd: string; label: string }): Promise<{ ended: Promise<{ exitCode: number | null }> }>;
}

export interface CheckRequest {
  key: string;
  command: string;
  cwd: string;
  label: string;
  /** The tree of the worktree's snapshot when it starts (null: not known). */
  tree: string | null;
}

export type CheckOutcome = { ok: true; result: CheckResult } | { ok: false; error: string };

export class CheckRuns extends DisposableObject {
  private readonly running = new Map<string, number>();
  private readonly changed = this._register(new Emitter<string>());
  /** A key's run started or ended. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly runner: CheckRunner,
    private readonly now: () => number = Date.now,
  ) {
    super();
  }

  /** When the key's run started, while it runs. */
  runningSince(key: string): number | undefined {
    return this.running.get(key);
  }

  /** Runs the check once (a run already going for this key is waited for instead: undefined). */
  async run(request: CheckRequest): Promise<CheckOutcome | undefined> {
    if (this.running.has(request.key)) return undefined;
    const startedAt = this.now();
    this.running.set(request.key, startedAt);
    this.changed.fire(request.key);
    try {
      const handle = await this.runner.start({ command: request.command, cwd: request.cwd, label: request.label });
      const { exitCode } = await handle.ended;
      const finishedAt = this.now();
      return { ok: true, result: { exitCode, durationMs: finishedAt - startedAt, finishedAt, tree: request.tree } };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    } finally {
      this.running.delete(request.key);
      this.changed.fire(request.key);
    }
  }
}
