/**
 * Node http ⇄ Web `Request`/`Response`, for the SDK's web-standard transport. We use that
 * transport (not the Node wrapper) because session recovery must feed it a synthetic
 * `initialize`, which only a `Request` can express.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export function toWebRequest(req: IncomingMessage, url: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // The body was read (and capped) already; it is handed to the transport pre-parsed.
  return new Request(url, { method: req.method ?? "GET", headers });
}

/** Streams a Response (SSE included) to the client; a client that goes away cancels the stream. */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  // Cancelling tells the transport the stream is gone, so it stops writing to it.
  const onClose = () => void reader.cancel().catch(() => undefined);
  res.once("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.writableEnded && !res.destroyed) res.write(value);
    }
  } catch {
    // The stream failed or was cancelled: nothing more to send.
  } finally {
    res.off("close", onClose);
    if (!res.writableEnded) res.end();
  }
}
