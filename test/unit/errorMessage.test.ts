import { expect, it } from "vitest";
import { errorMessage } from "../../src/core/util/errorMessage";

it("says what went wrong whatever was thrown: an Error's message, a thrown string or value as text (never 'undefined')", () => {
  expect(errorMessage(new Error("EACCES: permission denied"))).toBe("EACCES: permission denied");
  expect(errorMessage("disk full")).toBe("disk full");
  expect(errorMessage(42)).toBe("42");
  expect(errorMessage(undefined)).toBe("undefined");
});
