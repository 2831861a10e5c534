/**
 * Reads a request body up to a cap. Checked before the MCP SDK sees it, so a huge body is refused
 * without being held in memory, and so we can tell an `initialize` from other requests.
 *
 * A body over the cap is read to its end and thrown away before `tooLarge` is reported: a server
 * that answers and closes while the client is still sending leaves unread data on the socket,
 * the kernel then resets the connection, and the client sees ECONNRESET/EPIPE instead of the 413
 * (or, for a hook, instead of `{}`, which the CLI would have taken as "no decision"). Only past
 * MAX_DISCARDED_BYTES is the connection cut. Only authenticated requests get here.
 */
import type { IncomingMessage } from "node:http";

export type BodyRead = { kind: "ok"; text: string } | { kind: "tooLarge" };

/** Beyond this much thrown away, a sender is abusive, not just generous: the connection is cut. */
export const MAX_DISCARDED_BYTES = 256 * 1024 * 1024;

export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const declared = Number(req.headers["content-length"]);
    // A declared length over the cap: nothing is kept from the first byte on.
    if (Number.isFinite(declared) && declared > maxBytes) tooLarge = true;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (!tooLarge && size > maxBytes) {
        tooLarge = true;
        chunks.length = 0;
      }
      if (tooLarge) {
        if (size > MAX_DISCARDED_BYTES) req.socket.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => resolve(tooLarge ? { kind: "tooLarge" } : { kind: "ok", text: Buffer.concat(chunks).toString("utf8") }));
    req.once("error", reject);
    // Cut (above) or gone: whoever answers finds a destroyed response and writes nothing.
    req.once("close", () => {
      if (!req.complete) reject(new Error("the client went away before its body ended"));
    });
  });
}

/** Whether a parsed body is (or, as a batch, contains) an MCP `initialize` request. */
export function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => typeof m === "object" && m !== null && (m as { method?: unknown }).method === "initialize");
}
