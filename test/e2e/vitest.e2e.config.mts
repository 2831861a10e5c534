import { defineConfig } from "vitest/config";

// End-to-end tests: the packaged extension in a real VS Code (code-server) driven by Chromium.
// Run through `npm run test:e2e`, which packages the .vsix and runs vitest inside a loopback-only
// network namespace (scripts/e2e/run-in-netns.sh).
export default defineConfig({
  test: {
    name: "e2e",
    root: new URL("../..", import.meta.url).pathname,
    include: ["test/e2e/**/*.e2e.test.ts"],
    environment: "node",
    reporters: ["default", "./test/support/summaryReporter.ts"],
    // One VS Code + Chromium takes ~1.4 GB and more than a core while starting: one file at a time.
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
