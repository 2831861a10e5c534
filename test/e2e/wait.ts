// Waiting for conditions that have no event to wait on (a file another process writes, an HTTP
// server coming up). Each check is cheap; the interval only bounds how late we notice.
export async function pollUntil<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 30_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
