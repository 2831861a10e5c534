/**
 * Which turn answers review comments: the one the review message started (by its text and its
 * time), ended by the transcript. Another prompt queued while the agent worked, or an earlier
 * round's message read again after a reload, is not the answer.
 */
import { describe, expect, it } from "vitest";
import { AnswerWatch } from "../../../src/core/review/answerWatch";
import { REVIEW_MESSAGE_START } from "../../../src/core/review/reviewMessage";

const SENT_AT = Date.parse("2026-11-26T12:00:00Z");
const review = (at?: number) => ({
  kind: "prompt" as const,
  source: "user" as const,
  text: `${REVIEW_MESSAGE_START} (1): [1] App.tsx line 3 …`,
  ...(at ? { at } : {}),
});

describe("the turn that answers review comments", () => {
  it("is the one the review message started, ended by its turn end", () => {
    const watch = new AnswerWatch();
    watch.sent("a1", SENT_AT);
    expect(watch.events("a1", [{ kind: "turnEnd" }])).toBe(false);
    expect(watch.events("a1", [review(SENT_AT + 300), { kind: "turnEnd" }])).toBe(true);
    expect(watch.isWaiting("a1")).toBe(false);
  });

  it("is not a prompt the user queued at the same moment", () => {
    const watch = new AnswerWatch();
    watch.sent("a1", SENT_AT);
    const queued = { kind: "prompt" as const, source: "user" as const, text: "also fix the build", at: SENT_AT + 100 };
    expect(watch.events("a1", [queued, { kind: "turnEnd" }])).toBe(false);
    expect(watch.turnFinished("a1")).toBe(false);
    expect(watch.isWaiting("a1")).toBe(true);
  });

  it("is not a turn cut short (Esc, a usage limit): the threads wait for the turn that goes on", () => {
    const watch = new AnswerWatch();
    watch.sent("a1", SENT_AT);
    expect(watch.events("a1", [review(SENT_AT + 200), { kind: "interrupt", forToolUse: false }])).toBe(false);
    expect(watch.turnFinished("a1")).toBe(false);
    expect(watch.isWaiting("a1")).toBe(true);
    // The user says "go on": that turn's end is the answer.
    const goOn = { kind: "prompt" as const, source: "user" as const, text: "go on", at: SENT_AT + 60_000 };
    expect(watch.events("a1", [goOn, { kind: "turnEnd" }])).toBe(true);
  });

  it("is not an earlier round's review message read again (after a reload)", () => {
    const watch = new AnswerWatch();
    watch.sent("a1", SENT_AT);
    expect(watch.events("a1", [review(SENT_AT - 60 * 60_000), { kind: "turnEnd" }])).toBe(false);
    expect(watch.events("a1", [review(SENT_AT + 1_000), { kind: "turnEnd" }])).toBe(true);
  });
});
