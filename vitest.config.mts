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
          // Some run real git or real processes: on a loaded 2-core machine a test of a dozen git
          // commands took 6–7 s. A timeout here only catches a hang (speed is the bench's), so 20 s.
          testTimeout: 20_000,
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
          // One file at a time: several files start real CLIs, kill them (kill -9 tests) and time
          // them; run side by side on a 2-core CI machine, a launch in one file was SIGKILLed at
          // start-up twice (not reproducible alone). Slower, but every figure and kill is its own.
          maxWorkers: 1,
          fileParallelism: false,
          // A real CLI under a loaded 2-core machine misses a timing window now and then (seen: a
          // background agent's checkpoint, a terminal "Yes" racing the status file); one retry, and
          // vitest still prints the first failure, so a real regression (fails twice) still fails.
          retry: 1,
        },
      },
    ],
  },
});
