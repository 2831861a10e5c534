import { defineConfig } from "vitest/config";

// Two projects: fast unit tests (plain Node, recorded fixtures) and integration tests that drive the
// real Claude Code CLI inside a loopback-only network namespace.
export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summaryReporter.ts"],
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          environment: "node",
          // After the unit tests, which are quick and say more when something basic broke.
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Each real CLI uses ~250 MB and a core; two at once is what a 2-core machine takes.
          maxWorkers: 2,
          fileParallelism: true,
        },
      },
    ],
  },
});
