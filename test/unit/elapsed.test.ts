/** A call's elapsed time, in the one format the cards and the extension's call picker share (src/shared/elapsed.ts). */
import { expect, it } from "vitest";
import { formatElapsed } from "../../src/shared/elapsed";

it("formats elapsed time the way the cards show it", () => {
  expect(formatElapsed(0)).toBe("0s");
  expect(formatElapsed(5_999)).toBe("5s");
  expect(formatElapsed(59_000)).toBe("59s");
  expect(formatElapsed(60_000)).toBe("1m 00s");
  expect(formatElapsed(63_000)).toBe("1m 03s");
  expect(formatElapsed(3_599_000)).toBe("59m 59s");
  expect(formatElapsed(3_723_000)).toBe("1h 02m 03s");
});

it("never shows a negative or broken time (clock skew, missing data)", () => {
  expect(formatElapsed(-2_000)).toBe("0s");
  expect(formatElapsed(Number.NaN)).toBe("0s");
});
