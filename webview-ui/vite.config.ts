import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Built into the extension's dist/ so that one folder holds everything the .vsix ships.
export default defineConfig({
  plugins: [react()],
  base: "./",
  build: {
    outDir: "../dist/webview",
    emptyOutDir: true,
    // Stable names: the extension rewrites these paths with asWebviewUri.
    rollupOptions: { output: { entryFileNames: "assets/[name].js", chunkFileNames: "assets/[name].js", assetFileNames: "assets/[name][extname]" } },
  },
});
