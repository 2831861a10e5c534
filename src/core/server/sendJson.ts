/** One JSON answer, the way both routes and the shared checks answer. */
import type { ServerResponse } from "node:http";

export function sendJson(res: ServerResponse, status: number, value: object, headers: Record<string, string> = {}): void {
  // Too late for a status (a stream already started): just end it.
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers });
  res.end(body);
}
