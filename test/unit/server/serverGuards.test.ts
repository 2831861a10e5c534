import { describe, expect, it } from "vitest";
import { hasBearerToken, newToken } from "../../../src/core/server/auth";
import { isLoopbackHost, isLoopbackOrigin } from "../../../src/core/server/loopbackCheck";
import { isInitialize } from "../../../src/core/server/requestBody";

describe("MCP server guards", () => {
  it("makes tokens of at least 128 random bits, base64url", () => {
    const a = newToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(a, "base64url").length).toBeGreaterThanOrEqual(16);
    expect(newToken()).not.toBe(a);
  });

  it("accepts exactly `Bearer <token>`", () => {
    expect(hasBearerToken("Bearer abc", "abc")).toBe(true);
    expect(hasBearerToken("bearer abc", "abc")).toBe(true);
    for (const h of [undefined, "", "abc", "Bearer", "Bearer abd", "Bearer abcd", "Bearer ab", "Basic abc", "Bearer abc def"]) {
      expect(hasBearerToken(h, "abc")).toBe(false);
    }
  });

  it("allows loopback hosts on the server's own port only", () => {
    for (const h of ["127.0.0.1:5000", "localhost:5000", "LOCALHOST:5000", "[::1]:5000"]) expect(isLoopbackHost(h, 5000)).toBe(true);
    for (const h of [undefined, "127.0.0.1", "127.0.0.1:5001", "evil.example:5000", "127.0.0.1.evil.example:5000", "0.0.0.0:5000"]) {
      expect(isLoopbackHost(h, 5000)).toBe(false);
    }
  });

  it("allows no Origin, or a loopback one on the same port", () => {
    expect(isLoopbackOrigin(undefined, 5000)).toBe(true);
    expect(isLoopbackOrigin("http://localhost:5000", 5000)).toBe(true);
    for (const o of ["null", "http://evil.example", "https://127.0.0.1:5000", "http://127.0.0.1:5001", "vscode-webview://x"]) {
      expect(isLoopbackOrigin(o, 5000)).toBe(false);
    }
  });

  it("recognises an initialize request, alone or in a batch", () => {
    expect(isInitialize({ jsonrpc: "2.0", id: 1, method: "initialize" })).toBe(true);
    expect(isInitialize([{ method: "ping" }, { method: "initialize" }])).toBe(true);
    expect(isInitialize({ method: "tools/list" })).toBe(false);
    expect(isInitialize(null)).toBe(false);
  });
});
