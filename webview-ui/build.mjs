// Builds the webview's pages, each its own bundle (vite.config.ts): the agents panel, the
// Sessions list, the session reader, a race's compare tab. Prints each page's script size gzipped, the figure the
// panel's first paint waits for.
import { rmSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "vite";

const out = new URL("../dist/webview/", import.meta.url);
rmSync(out, { recursive: true, force: true });
for (const page of ["agents", "sessions", "session", "compare", "queue"]) {
  process.env.ARCADIA_PAGE = page;
  await build({ logLevel: "warn" });
  const js = readFileSync(new URL(`assets/${page}.js`, out));
  console.log(`webview: ${page}.js ${(js.length / 1024).toFixed(0)} KB, ${(gzipSync(js).length / 1024).toFixed(0)} KB gzip`);
}
