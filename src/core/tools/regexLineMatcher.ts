/**
 * An agent's regular expression, run off the extension host's thread. A catastrophic pattern
 * (`^(a+)+$` against "aaaa…a!") backtracks for minutes, and a RegExp cannot be interrupted: on
 * the main thread it would freeze every card, terminal and tool of the window. So the matching
 * runs in a worker thread, one per search, fed one file at a time; a file that takes longer
 * than the deadline gets the worker terminated (the only way to stop a running RegExp) and the
 * search ends with RegexTimeoutError. The call's AbortSignal terminates it too.
 *
 * The worker's code is a string (`eval: true`): it needs no file of its own next to the bundle.
 */
import { Worker } from "node:worker_threads";

export const DEFAULT_REGEX_DEADLINE_MS = 5_000;

// Plain JavaScript, CommonJS (what an eval worker runs). Gets {text, limit}; answers the 0-based
// indexes of at most `limit` matching lines.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const matcher = new RegExp(workerData.source, workerData.flags);
parentPort.on("message", ({ text, limit }) => {
  const lines = text.split(/\\r?\\n/);
  const hits = [];
  for (let i = 0; i < lines.length && hits.length < limit; i++) if (matcher.test(lines[i])) hits.push(i);
  parentPort.postMessage(hits);
});
`;

export class RegexTimeoutError extends Error {
  constructor(readonly deadlineMs: number) {
    super(`the regex took longer than ${deadlineMs / 1000} s`);
  }
}

export class RegexAbortedError extends Error {
  constructor() {
    super("the search was cancelled");
  }
}

export class RegexLineMatcher {
  private readonly worker: Worker;
  private closed = false;
  private fail: ((err: Error) => void) | undefined;
  private readonly onAbort = () => this.stop(new RegexAbortedError());

  /** `source` and `flags` must already compile (check with `new RegExp` first: compiling is safe). */
  constructor(
    source: string,
    flags: string,
    private readonly deadlineMs: number,
    private readonly signal: AbortSignal,
  ) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { source, flags } });
    // A stray worker must not keep the process (or a test run) alive.
    this.worker.unref();
    this.worker.on("error", (err) => this.stop(err));
    signal.addEventListener("abort", this.onAbort, { once: true });
  }

  /** The 0-based indexes of the lines of `text` that match, at most `limit` of them. */
  matchingLines(text: string, limit: number): Promise<number[]> {
    if (this.signal.aborted) return Promise.reject(new RegexAbortedError());
    if (this.closed) return Promise.reject(new Error("the regex worker has stopped"));
    return new Promise<number[]>((resolve, reject) => {
      const timer = setTimeout(() => this.stop(new RegexTimeoutError(this.deadlineMs)), this.deadlineMs);
      const settle = () => {
        clearTimeout(timer);
        this.worker.off("message", onMessage);
        this.fail = undefined;
      };
      const onMessage = (hits: number[]) => {
        settle();
        resolve(hits);
      };
      this.fail = (err) => {
        settle();
        reject(err);
      };
      this.worker.on("message", onMessage);
      this.worker.postMessage({ text, limit });
    });
  }

  /** The search is over (or gave up): the thread goes. */
  close(): void {
    this.stop(undefined);
  }

  private stop(err: Error | undefined): void {
    if (err) this.fail?.(err);
    if (this.closed) return;
    this.closed = true;
    this.signal.removeEventListener("abort", this.onAbort);
    void this.worker.terminate();
  }
}
