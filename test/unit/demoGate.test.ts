/**
 * The demo's gate (scripts/demo/gate.ts): code-server runs without a password, so only requests
 * that name 127.0.0.1/localhost and carry the run's token (URL once, then cookie) get through.
 */
import { describe, expect, it } from "vitest";
import { checkRequest, COOKIE_NAME, TOKEN_PARAM } from "../../scripts/demo/gate";

const opts = { port: 8765, token: "s3cret-token" };
const head = (target: string, headers: Record<string, string>) =>
  [`GET ${target} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join("\r\n");
const status = (d: ReturnType<typeof checkRequest>) => (d.kind === "pass" ? "pass" : Number(d.response.split(" ")[1]));

describe("the demo gate", () => {
  it("swaps the token in the URL for a cookie and redirects to the same page without it", () => {
    const d = checkRequest(head(`/?folder=%2Fw&${TOKEN_PARAM}=${opts.token}`, { Host: "127.0.0.1:8765" }), opts);
    expect(status(d)).toBe(302);
    expect(d.kind === "reply" && d.response).toMatch(/\r\nlocation: \/\?folder=%2Fw\r\n/);
    expect(d.kind === "reply" && d.response).toMatch(new RegExp(`set-cookie: ${COOKIE_NAME}=${opts.token}; Path=/; HttpOnly; SameSite=Strict`));
  });

  it("lets requests with the cookie through, WebSocket upgrades included", () => {
    const cookie = `other=1; ${COOKIE_NAME}=${opts.token}`;
    expect(status(checkRequest(head("/stable-x/static/out/main.js", { host: "127.0.0.1:8765", cookie }), opts))).toBe("pass");
    expect(status(checkRequest(head("/?reconnectionToken=a", { Host: "localhost:8765", Upgrade: "websocket", Cookie: cookie }), opts))).toBe("pass");
  });

  it("refuses requests without the token, or with a wrong one", () => {
    expect(status(checkRequest(head("/", { Host: "127.0.0.1:8765" }), opts))).toBe(401);
    expect(status(checkRequest(head(`/?${TOKEN_PARAM}=guess`, { Host: "127.0.0.1:8765" }), opts))).toBe(401);
    expect(status(checkRequest(head("/", { Host: "127.0.0.1:8765", Cookie: `${COOKIE_NAME}=s3cret-tokeN` }), opts))).toBe(401);
  });

  it("refuses other host names even with the token (DNS rebinding)", () => {
    const cookie = `${COOKIE_NAME}=${opts.token}`;
    expect(status(checkRequest(head("/", { Host: "evil.example:8765", Cookie: cookie }), opts))).toBe(403);
    expect(status(checkRequest(head("/", { Host: "127.0.0.1:9999", Cookie: cookie }), opts))).toBe(403);
    expect(status(checkRequest(head("/", { Cookie: cookie }), opts))).toBe(403);
  });
});
