/**
 * Prints one plain closing line, `vitest: N passed, N failed, N skipped`, that any CI log reader
 * understands without knowing vitest's own summary format.
 *
 * The line must agree with the exit code, so "failed" counts every failure, not only failed tests:
 * a test file that cannot be loaded (a collection error), a suite whose beforeAll/afterAll threw,
 * and an error thrown outside any test each count as one. Were they left out, a run whose only
 * problem is a file that does not load would close on "0 failed" and exit 1.
 */
import type { Reporter, TestModule, TestRunEndReason, TestSuite } from "vitest/node";

export interface RunSummary {
  passed: number;
  failed: number;
  skipped: number;
}

export function summarize(modules: ReadonlyArray<TestModule>, unhandledErrors: number, reason: TestRunEndReason): RunSummary {
  const summary: RunSummary = { passed: 0, failed: 0, skipped: 0 };
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === "passed") summary.passed++;
      else if (state === "failed") summary.failed++;
      else summary.skipped++;
    }
    // Errors of the file itself (it did not load) and of its suites' hooks: not a test's errors.
    const containers: Array<TestModule | TestSuite> = [module, ...module.children.allSuites()];
    for (const container of containers) if (container.errors().length > 0) summary.failed++;
  }
  summary.failed += unhandledErrors;
  // Whatever else made vitest fail (e.g. interrupted), the line must not say "0 failed".
  if (reason !== "passed" && summary.failed === 0) summary.failed = 1;
  return summary;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>, reason: TestRunEndReason): void {
    const { passed, failed, skipped } = summarize(testModules, unhandledErrors.length, reason);
    console.log(`vitest: ${passed} passed, ${failed} failed, ${skipped} skipped`);
    // A run filtered by test names (`-t`, e.g. `npm run test:e2e:sidebar`) skips a test it no longer
    // matches without a word: a renamed test would drop out of it unseen. It says how many it expects.
    const expected = Number(process.env.ARCADIA_EXPECT_PASSED ?? "");
    if (expected > 0 && passed < expected) {
      console.error(`vitest: ${passed} passed where ARCADIA_EXPECT_PASSED=${expected}: a test the run's -t filter names was renamed or removed (fix the filter)`);
      process.exitCode = 1;
    }
  }
}
