/** A turn refused for a usage or rate limit: told apart from other errors, with when it resets. */
import { describe, expect, it } from "vitest";
import { readSessionDigest } from "../../../src/core/sessions/sessionDigestReader";
import { endsLimit, limitMessage, limitNoticeOf } from "../../../src/core/usage/limitNotice";
import { recordedSession } from "../../support/recorded";

/** A synthetic error reply as the CLI writes it (fields from 2.1.330's recorded one), with `text`. */
const errorReply = (text: string, extra: Record<string, unknown> = {}) => ({
  type: "assistant",
  isApiErrorMessage: true,
  error: "rate_limit",
  apiErrorStatus: 429,
  message: { model: "<synthetic>", role: "assistant", content: [{ type: "text", text }] },
  ...extra,
});
const NOW = Date.UTC(2026, 10, 26, 9, 30);

describe("a usage or rate limit", () => {
  it("is read from the real CLI's refusal (API key: 429, not retried) as a rate limit, and says so", async () => {
    const digest = await readSessionDigest(recordedSession("usage-limit-print").path);
    expect(digest.limit).toMatchObject({ kind: "rate" });
    expect(limitMessage(digest.limit!, NOW)).toBe("Rate limited by the API (429)");
  });

  it("is a usage limit with the moment access comes back when the real CLI quotes an API key's spend limit (400)", async () => {
    const digest = await readSessionDigest(recordedSession("api-usage-limit-print").path);
    expect(digest.limit).toEqual(expect.objectContaining({ kind: "usage", resetsAt: Date.UTC(2026, 11, 1, 0, 0) }));
    expect(limitMessage(digest.limit!, Date.UTC(2026, 11, 1, 0, 0) - 3_600_000, { locale: "en-GB", timeZone: "UTC" })).toBe(
      "Usage limit reached — resets at Tue 1 Dec, 00:00",
    );
  });

  it("is a usage limit with its reset in a subscription's words (2.1.x): 'You've hit your limit · resets 2pm (Europe/London)'", () => {
    const notice = limitNoticeOf(errorReply("You've hit your limit · resets 2pm (Europe/London)"))!;
    expect(notice).toMatchObject({ kind: "usage", resetsText: "2pm (Europe/London)" });
    expect(limitMessage(notice, NOW)).toBe("Usage limit reached — resets at 2pm (Europe/London)");
    const weekly = limitNoticeOf(errorReply("You've hit your weekly limit · resets Nov 27, 9am · progress saved"))!;
    expect(limitMessage(weekly, NOW)).toBe("Usage limit reached — resets Nov 27, 9am");
  });

  it("reads an old CLI's epoch form and shows the reset as a time today, or with its day", () => {
    const today = limitNoticeOf(errorReply(`Claude AI usage limit reached|${Date.UTC(2026, 10, 26, 14) / 1000}`))!;
    expect(today).toMatchObject({ kind: "usage", resetsAt: Date.UTC(2026, 10, 26, 14) });
    expect(limitMessage(today, NOW, { locale: "en-GB", timeZone: "UTC" })).toBe("Usage limit reached — resets at 14:00");
    const tomorrow = limitNoticeOf(errorReply(`Claude AI usage limit reached|${Date.UTC(2026, 10, 27, 9) / 1000}`))!;
    expect(limitMessage(tomorrow, NOW, { locale: "en-GB", timeZone: "UTC" })).toBe("Usage limit reached — resets at Fri 27 Nov, 09:00");
  });

  it("is not any other error, nor a retry; a real reply afterwards ends it", async () => {
    expect(limitNoticeOf(errorReply("API Error: 500 Internal server error", { error: "server_error", apiErrorStatus: 500 }))).toBeUndefined();
    expect(limitNoticeOf({ type: "system", subtype: "api_error", error: { status: 429 } })).toBeUndefined();
    expect(endsLimit({ type: "assistant", message: { model: "claude-opus-5-5", content: [] } })).toBe(true);
    expect(endsLimit(errorReply("again"))).toBe(false);
    // The recorded print session with 529s and a 429 that were retried and then answered: no limit left.
    expect((await readSessionDigest(recordedSession("api-errors-print").path)).limit).toBeUndefined();
  });
});
