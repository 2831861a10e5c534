/**
 * Work per key (an agent) that is asked for in bursts — count an agent's changes after each of its
 * tools — done once things settle and never twice at a time: `request` waits `settleMs` of quiet;
 * `now` starts at once; a request while the work runs runs it once more right after.
 */
export class SettledRuns {
  private readonly keys = new Map<string, { timer?: ReturnType<typeof setTimeout>; running?: Promise<void>; again?: () => Promise<void> }>();

  constructor(private readonly settleMs: number) {}

  request(key: string, work: () => Promise<void>): void {
    const state = this.stateOf(key);
    clearTimeout(state.timer);
    state.timer = setTimeout(() => void this.now(key, work), this.settleMs);
  }

  /** Runs `work` now (or right after the run in progress); resolves when this request's run ends. */
  now(key: string, work: () => Promise<void>): Promise<void> {
    const state = this.stateOf(key);
    if (state.running) {
      state.again = work;
      return state.running.then(() => this.keys.get(key)?.running ?? undefined);
    }
    state.running = work()
      .catch(() => undefined)
      .finally(() => {
        const current = this.keys.get(key);
        if (current !== state) return;
        state.running = undefined;
        const next = state.again;
        state.again = undefined;
        if (next) void this.now(key, next);
      });
    return state.running;
  }

  cancel(key: string): void {
    clearTimeout(this.keys.get(key)?.timer);
    this.keys.delete(key);
  }

  dispose(): void {
    for (const state of this.keys.values()) clearTimeout(state.timer);
    this.keys.clear();
  }

  private stateOf(key: string) {
    let state = this.keys.get(key);
    if (!state) this.keys.set(key, (state = {}));
    return state;
  }
}
