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

// Built into the extension's dist/ so that one folder holds everything the .vsix ships.
export default defineConfig({
  plugins: [react(), asciiCss()],
  base: "./",
  build: {
    outDir: "../dist/webview",
    emptyOutDir: true,
    // Stable names: the extension rewrites these paths with asWebviewUri.
    rollupOptions: { output: { entryFileNames: "assets/[name].js", chunkFileNames: "assets/[name].js", assetFileNames: "assets/[name][extname]" } },
  },
});
