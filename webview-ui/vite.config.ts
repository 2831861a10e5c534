import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/**
 * The CSS minifier turns codicon escapes ("\ea60") into raw UTF-8 characters. A stylesheet loaded
 * without a charset is then read as Latin-1 and every icon shows as mojibake; ASCII escapes read
 * the same under any charset.
 */
function asciiCss(): Plugin {
  return {
    name: "arcadia-ascii-css",
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== "asset" || !file.fileName.endsWith(".css") || typeof file.source !== "string") continue;
        file.source = file.source.replace(/[\u0080-\u{10ffff}]/gu, (ch) => `\\${(ch.codePointAt(0) ?? 0xfffd).toString(16)} `);
      }
    },
  };
}

/** The pages, each its own bundle: the agents panel loads no Markdown and no reader. */
export const PAGES = ["agents", "sessions", "session", "compare", "queue"] as const;

/**
 * One self-contained bundle per page (ARCADIA_PAGE, default agents; build.mjs builds each):
 * assets/<page>.js and assets/<page>.css, with no shared chunk, because the webview's CSP admits
 * only the page's one nonce'd script, and a chunk it imports would be a script of its own.
 * Built into the extension's dist/ so that one folder holds everything the .vsix ships.
 */
export default defineConfig(() => {
  const page = process.env.ARCADIA_PAGE ?? "agents";
  return {
    plugins: [react(), asciiCss()],
    base: "./",
    build: {
      outDir: "../dist/webview",
      // build.mjs empties it once, before the first page.
      emptyOutDir: false,
      // Vite's advice at 500 kB is to split into chunks, which this CSP rules out (above). The
      // largest page is the reader (~495 KiB: React, the toolkit and markdown-it); build.mjs
      // prints every page's size, and the panel's (~120 KB gzip) is the one a first paint waits for.
      chunkSizeWarningLimit: 600,
      rollupOptions: {
        input: { [page]: `src/pages/${page}.tsx` },
        // Stable names: the extension rewrites these paths with asWebviewUri.
        output: { entryFileNames: "assets/[name].js", chunkFileNames: "assets/[name].js", assetFileNames: (info: { names?: string[] }) => assetName(page, info) },
      },
    },
  };
});

/** The page's stylesheet as assets/<page>.css; other assets (the codicon font) by their own names. */
function assetName(page: string, info: { names?: string[] }): string {
  return info.names?.some((n) => n.endsWith(".css")) ? `assets/${page}.css` : "assets/[name][extname]";
}
