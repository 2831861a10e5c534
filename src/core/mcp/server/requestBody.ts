/**
 * Reads a request body up to a cap. Checked before the MCP SDK sees it, so a huge body is refused
 * without being held in memory, and so we can tell an `initialize` from other requests.
 */
import type { IncomingMessage } from "node:http";

export type BodyRead = { kind: "ok"; text: string } | { kind: "tooLarge" };

export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    // Drained, not kept: a client still writing its body would otherwise miss the 413.
    req.resume();
    return Promise.resolve({ kind: "tooLarge" });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        done = true;
        chunks.length = 0;
        // Stop keeping it; the rest is drained (below) so the 413 reaches the client.
        req.off("data", onData);
        req.resume();
        resolve({ kind: "tooLarge" });
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => {
      if (!done) resolve({ kind: "ok", text: Buffer.concat(chunks).toString("utf8") });
    });
    req.once("error", (err) => {
      if (!done) reject(err);
    });
  });
}

/** Whether a parsed body is (or, as a batch, contains) an MCP `initialize` request. */
export function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => typeof m === "object" && m !== null && (m as { method?: unknown }).method === "initialize");
}
