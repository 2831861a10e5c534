/**
 * Attack class: a regular expression that backtracks for minutes (ReDoS). A file the agent read
 * tells it to search for `^(a+)+$`; one line of 'a's and a '!' makes that exponential. Run on the
 * extension host's thread it would freeze the whole window. search_files runs it in a worker with
 * a deadline: the host keeps going, and the agent gets an error it can act on.
 *
 * 30 'a's take ~30 s on the main thread and ~4 s in the worker (28 took ~1 s in a worker on a faster
 * machine, under the 1 s deadline): long enough to pass the deadline anywhere, and without the
 * worker the ticking check fails.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../tools/toolHarness";

let h: Harness;
afterEach(async () => h?.close());

const DEADLINE_MS = 1_000;
const EVIL = { pattern: "^(a+)+$", regex: true };

function evilFile() {
  writeFileSync(join(h.workspace, "evil.txt"), `first line\n${"a".repeat(30)}!\nlast line\n`);
}

/** Counts 20 ms ticks of this thread's event loop until stopped. */
function ticker() {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  return { ticks: () => ticks, stop: () => clearInterval(timer) };
}

describe("search_files with a catastrophic regex", () => {
  it("keeps the event loop ticking, and ends with 'took longer than N s; simplify it' within the deadline", async () => {
    h = await startHarness({ regexDeadlineMs: DEADLINE_MS });
    evilFile();
    const clock = ticker();
    const started = Date.now();
    const { isError, body } = await h.call("search_files", EVIL);
    const took = Date.now() - started;
    clock.stop();

    expect(isError).toBe(true);
    expect(body.message).toMatch(/the regex took longer than 1 s on evil\.txt, so the search was stopped; simplify it/);
    expect(took).toBeLessThan(DEADLINE_MS + 1_500);
    // 20 ms ticks over at least the deadline: a blocked loop would have counted none meanwhile.
    expect(clock.ticks()).toBeGreaterThan(DEADLINE_MS / 20 / 3);
  }, 20_000);

  it("the panel's Cancel ends the search at once, the worker stopped", async () => {
    h = await startHarness({ regexDeadlineMs: 60_000 });
    evilFile();
    const call = h.nextCall();
    const running = h.call("search_files", EVIL);
    const { id } = await call;
    await new Promise((r) => setTimeout(r, 200));
    const clock = ticker();
    const cancelledAt = Date.now();
    h.tracker.cancelCall(id);
    const { isError, body } = await running;
    clock.stop();
    expect(isError).toBe(true);
    expect(body).toMatchObject({ status: "cancelled" });
    expect(Date.now() - cancelledAt).toBeLessThan(1_000);
    // And the server still answers the next search, a sane one.
    const sane = await h.call("search_files", { pattern: "^last", regex: true });
    expect(sane.body.matches).toEqual([{ path: "evil.txt", line: 3, text: "last line" }]);
  }, 20_000);

  it("an ordinary regex search still finds its lines", async () => {
    h = await startHarness({ regexDeadlineMs: DEADLINE_MS });
    evilFile();
    const { isError, body } = await h.call("search_files", { pattern: "line$", regex: true });
    expect(isError).toBe(false);
    expect(body.matches.map((m: { line: number }) => m.line)).toEqual([1, 3]);
  });
});
