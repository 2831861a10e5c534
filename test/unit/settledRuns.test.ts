import { afterEach, describe, expect, it, vi } from "vitest";
import { SettledRuns } from "../../src/core/util/settledRuns";

afterEach(() => vi.useRealTimers());

describe("work asked for in bursts", () => {
  it("runs once after the burst settles, never twice at a time, and once more when asked while running", async () => {
    vi.useFakeTimers();
    const runs = new SettledRuns(100);
    let running = 0;
    let most = 0;
    let count = 0;
    let release: () => void = () => undefined;
    const work = () => {
      running++;
      most = Math.max(most, running);
      count++;
      return new Promise<void>((resolve) => (release = () => (running--, resolve())));
    };
    for (let i = 0; i < 5; i++) {
      runs.request("a", work);
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(count).toBe(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(count).toBe(1);
    // Asked twice while it runs: one more run, after this one.
    void runs.now("a", work);
    void runs.now("a", work);
    expect(count).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(count).toBe(2);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect([count, most]).toEqual([2, 1]);
  });

  it("a cancelled key runs nothing that was waiting", async () => {
    vi.useFakeTimers();
    const runs = new SettledRuns(100);
    const work = vi.fn(() => Promise.resolve());
    runs.request("a", work);
    runs.cancel("a");
    await vi.advanceTimersByTimeAsync(500);
    expect(work).not.toHaveBeenCalled();
  });
});
