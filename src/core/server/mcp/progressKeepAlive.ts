/**
 * Keeps a long tool call alive: clients drop a response stream after minutes of silence (seen at
 * ~2.5 min), so while a call runs we send `notifications/progress` every interval. Only possible
 * when the client asked for progress (a `progressToken` in the request's `_meta`).
 */

export const DEFAULT_PROGRESS_INTERVAL_MS = 20_000;

export interface ProgressSink {
  _meta?: { progressToken?: string | number; [key: string]: unknown };
  sendNotification(notification: {
    method: "notifications/progress";
    params: { progressToken: string | number; progress: number; message?: string };
  }): Promise<void>;
}

/** Starts the keep-alive; the returned function stops it. */
export function keepAlive(sink: ProgressSink, intervalMs: number, toolName: string): () => void {
  const progressToken = sink._meta?.progressToken;
  if (progressToken === undefined) return () => undefined;
  const startedAt = Date.now();
  let progress = 0;
  const timer = setInterval(() => {
    // Progress must increase with each notification; a count does.
    progress += 1;
    const seconds = Math.round((Date.now() - startedAt) / 1000);
    sink
      .sendNotification({ method: "notifications/progress", params: { progressToken, progress, message: `${toolName} still running (${seconds} s)` } })
      // The stream may be gone (client left); the call itself decides what happens then.
      .catch(() => undefined);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
