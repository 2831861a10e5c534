// Who may use the demo's VS Code. code-server runs without a password (--auth none) and its
// terminals are shells as you (root, often), so the port must not be open to just anyone:
//   - other users of this machine: they would need the run's random token, which only the
//     printed URL carries (then a cookie, so reloads and the page's own requests work);
//   - web pages in your browser (DNS rebinding): the Host header must name 127.0.0.1 or localhost.
// Looks at the head of the first request of each connection only; the proxy pipes the rest.
import { timingSafeEqual } from "node:crypto";

export const TOKEN_PARAM = "arcadia-demo-token";
export const COOKIE_NAME = "arcadia-demo-token";

export type Decision = { kind: "pass" } | { kind: "reply"; response: string };

/** `head`: the request line and headers (up to the blank line), as latin1 text. */
export function checkRequest(head: string, opts: { port: number; token: string }): Decision {
  const [requestLine = "", ...headerLines] = head.split("\r\n");
  const headers = new Map<string, string>();
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const host = headers.get("host") ?? "";
  if (host !== `127.0.0.1:${opts.port}` && host !== `localhost:${opts.port}`) {
    return reply(403, "Forbidden", `The Arcadia demo answers only to http://127.0.0.1:${opts.port}, not to "${host}".\n`);
  }
  const target = requestLine.split(" ")[1] ?? "/";
  const url = new URL(target, "http://127.0.0.1");
  const given = url.searchParams.get(TOKEN_PARAM);
  if (given !== null && same(given, opts.token)) {
    // Swap the token in the URL for a cookie, and show the address without it.
    url.searchParams.delete(TOKEN_PARAM);
    return reply(302, "Found", "", {
      location: url.pathname + url.search,
      "set-cookie": `${COOKIE_NAME}=${opts.token}; Path=/; HttpOnly; SameSite=Strict`,
    });
  }
  const fromCookie = cookie(headers.get("cookie") ?? "", COOKIE_NAME);
  if (fromCookie !== undefined && same(fromCookie, opts.token)) return { kind: "pass" };
  return reply(401, "Unauthorized", "Open the Arcadia demo with the full URL that `npm run demo` printed: it carries this run's access token.\n");
}

function cookie(header: string, name: string): string | undefined {
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const reply = (status: number, reason: string, text: string, extra: Record<string, string> = {}): Decision => ({
  kind: "reply",
  response: httpResponse(status, reason, text, extra),
});

/** A complete HTTP/1.1 response that closes the connection. */
export function httpResponse(status: number, reason: string, text: string, extra: Record<string, string> = {}): string {
  const headers = {
    "content-type": "text/plain; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
    "cache-control": "no-store",
    connection: "close",
    ...extra,
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return `HTTP/1.1 ${status} ${reason}\r\n${lines.join("\r\n")}\r\n\r\n${text}`;
}
