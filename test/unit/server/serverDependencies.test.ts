/**
 * The loopback server's dependency arrows point one way: the routes (/mcp, /hooks) depend on the
 * server's shared checks, never the other way, neither route reaches into the other, and the
 * permission-prompt code (core/hooks) loads no MCP code. Read from the real sources; the control
 * below proves the reader sees the imports that do exist.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const core = resolve(__dirname, "../../../src/core");

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name));
}

/** What a file imports, as paths relative to src/core (packages and node: modules left out). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)].map((m) => m[1] as string);
  return specifiers.map((s) => relative(core, resolve(dirname(file), s)));
}

function crossings(files: string[], forbidden: RegExp): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((target) => forbidden.test(target))
      .map((target) => `${relative(core, file)} → ${target}`),
  );
}

describe("the loopback server's dependency arrows", () => {
  it("the shared checks import no route: only startServer.ts (and the public index) puts the routes together", () => {
    const shared = readdirSync(join(core, "server"))
      .filter((name) => name.endsWith(".ts") && name !== "startServer.ts" && name !== "index.ts")
      .map((name) => join(core, "server", name));
    expect(shared.length).toBeGreaterThan(4);
    expect(crossings(shared, /^server\/(mcp|hooks)\//)).toEqual([]);
    // Control: the composition's own imports of both routes are seen.
    expect(importsOf(join(core, "server/startServer.ts"))).toEqual(expect.arrayContaining(["server/mcp/mcpRoute", "server/hooks/hookRoute"]));
  });

  it("neither route imports the other", () => {
    expect(crossings(sourcesUnder(join(core, "server/mcp")), /^server\/hooks\//)).toEqual([]);
    expect(crossings(sourcesUnder(join(core, "server/hooks")), /^server\/mcp\//)).toEqual([]);
  });

  it("core/hooks (permission prompts) imports no MCP code", () => {
    const hooks = sourcesUnder(join(core, "hooks"));
    expect(hooks.length).toBeGreaterThan(3);
    expect(crossings(hooks, /^(mcp\/|server\/mcp\/)/)).toEqual([]);
  });
});
