import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// The panel's own tests: React components in jsdom, apart from the extension's Node test projects.
export default defineConfig({
  plugins: [react()],
  test: {
    environment: "jsdom",
    include: ["test/**/*.test.{ts,tsx}"],
    setupFiles: ["test/setup.ts"],
  },
});
