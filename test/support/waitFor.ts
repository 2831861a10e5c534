/**
 * Waits for a condition that an event makes true (a file event reaching the follower), checking
 * again on every change notification. Never used to wait for the engine's own timers: those run
 * on a ManualClock in tests.
 */
export async function waitForChange<T>(
  subscribe: (onChange: () => void) => () => void,
  probe: () => T | undefined | false,
  timeoutMs = 5000,
  what = "condition",
): Promise<T> {
  const now = probe();
  if (now) return now;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const unsubscribe = subscribe(() => {
      const value = probe();
      if (value) {
        clearTimeout(timer);
        unsubscribe();
        resolve(value);
      }
    });
  });
}
