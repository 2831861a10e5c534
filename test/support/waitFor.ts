/**
 * The tests' one way to wait for something, in two forms:
 * - `waitForChange`: a condition an event makes true (a file event reaching the follower), checked
 *   again on every change notification;
 * - `pollUntil`: a condition with no event to wait on (a file another process writes, an HTTP
 *   server coming up, a process appearing), checked every `intervalMs`: each check is cheap, the
 *   interval only bounds how late we notice.
 * Never used to wait for the engine's own timers: those run on a ManualClock in tests.
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

/**
 * Resolves with the probe's first truthy value; rejects after `timeoutMs` naming `what` (a function
 * when the message should say what was seen last), or at once with the probe's own error (e.g.
 * "the CLI exited": no point waiting on).
 */
export async function pollUntil<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string | (() => string),
  timeoutMs = 30_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === "function" ? what() : what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
