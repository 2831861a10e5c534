/**
 * Attack class: content injected into the panel (a subject, a name, a tool label the extension
 * shows) that would re-point the page or send it somewhere. The panel's Content-Security-Policy
 * allows scripts only by a fresh nonce, and forbids <base> (which would re-point the relative
 * asset URLs) and form targets (which default-src does not cover).
 */
import { describe, expect, it } from "vitest";
import type * as vscode from "vscode";
import { webviewHtml } from "../../../src/vscode/webviewHtml";

const webview = { cspSource: "https://file+.vscode-resource.vscode-cdn.net", asWebviewUri: (u: unknown) => u } as unknown as vscode.Webview;
const joinPath = (base: vscode.Uri, ...parts: string[]) => `${String(base)}/${parts.join("/")}` as unknown as vscode.Uri;

function policy(html: string): Map<string, string> {
  const content = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? "";
  return new Map(content.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name as string, values.join(" ")]));
}

describe("the panel's Content-Security-Policy", () => {
  it("forbids <base> and form targets, and runs only nonce'd scripts", () => {
    const csp = policy(webviewHtml(webview, "root" as unknown as vscode.Uri, joinPath));
    expect(csp.get("base-uri")).toBe("'none'");
    expect(csp.get("form-action")).toBe("'none'");
    expect(csp.get("default-src")).toBe("'none'");
    expect(csp.get("script-src")).toMatch(/^'nonce-[A-Za-z0-9+/=]{24}'$/);
  });

  it("a fresh nonce per load", () => {
    const a = policy(webviewHtml(webview, "root" as unknown as vscode.Uri, joinPath)).get("script-src");
    const b = policy(webviewHtml(webview, "root" as unknown as vscode.Uri, joinPath)).get("script-src");
    expect(a).not.toBe(b);
  });

  it("the embedded first snapshot is data that no name can break out of (no </script>, no comment)", () => {
    const hostile = "</script><script>alert(1)</script><!--";
    const html = webviewHtml(webview, "root" as unknown as vscode.Uri, joinPath, { type: "snapshot", agents: [{ name: hostile }], live: [], notice: null });
    const block = /<script type="application\/json" id="arcadia-initial-state">([\s\S]*?)<\/script>/.exec(html);
    expect(block).not.toBeNull();
    // The block ends where it should: the hostile text is inside it, escaped, and parses back whole.
    expect(block![1]).not.toContain("<");
    expect((JSON.parse(block![1]!) as { agents: { name: string }[] }).agents[0]!.name).toBe(hostile);
    expect(html.match(/<script/g)).toHaveLength(2);
  });
});
