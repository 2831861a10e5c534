// An interactive CLI in a pseudo-terminal, with a screen model so tests can wait for what a user
// would see. Key handling details of 2.1.330 are documented next to each action.
import { existsSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import type { IPty } from "@lydell/node-pty";
import { launchPty, type LaunchSpec, type NamespaceHandle } from "./launch.js";
import type { RigPaths } from "./paths.js";
import { Screen } from "./screen.js";
import { isUserText, readRecords, waitForRecords, type TranscriptRecord } from "./transcripts.js";
import { pollUntil } from "../support/waitFor";

export interface ExitInfo {
  exitCode: number;
  signal?: number;
}

const ESC = "\x1b";
const ENTER = "\r";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class InteractiveSession {
  readonly screen: Screen;
  readonly exited: Promise<ExitInfo>;
  /** Raw pty output, for debugging a failed test. */
  output = "";
  private readonly proc: IPty;
  private readonly ns: NamespaceHandle;
  private exitInfo: ExitInfo | undefined;
  private disposed = false;

  constructor(
    readonly sessionId: string,
    readonly paths: RigPaths,
    private readonly spec: LaunchSpec,
    cols = 120,
    rows = 40,
  ) {
    const { proc, ns } = launchPty(spec, cols, rows);
    this.proc = proc;
    this.ns = ns;
    this.screen = new Screen(cols, rows, (data) => {
      if (!this.exitInfo) this.proc.write(data);
    });
    proc.onData((d) => {
      this.output += d;
      this.screen.write(d);
    });
    this.exited = new Promise((resolve) =>
      proc.onExit((e) => {
        this.exitInfo = { exitCode: e.exitCode, signal: e.signal };
        resolve(this.exitInfo);
      }),
    );
  }

  get pid(): number {
    return this.proc.pid;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** The CLI draws its input box with a "❯" prompt once it accepts keystrokes. Also waits for the
   * model server (port file) so the namespace is captured for cleanup. */
  async waitForReady(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    await pollUntil(
      () => {
        if (this.exitInfo) throw new Error(`CLI exited (${JSON.stringify(this.exitInfo)}) before start-up:\n${this.screen.text()}`);
        return existsSync(join(this.spec.runDir, "port"));
      },
      "the model server to start",
      timeoutMs,
      25,
    );
    this.ns.capture();
    await this.waitForScreen(READY, Math.max(1, deadline - Date.now()));
  }

  /** Waits until no turn is running (no "esc to interrupt" hint) and the input box is empty. */
  async waitForIdle(timeoutMs = 30_000): Promise<void> {
    await pollUntil(
      () => {
        const text = this.screen.text();
        if (READY.test(text) && !BUSY.test(text)) return true;
        if (this.exitInfo) throw new Error(`CLI exited (${JSON.stringify(this.exitInfo)}). Screen:\n${text}`);
        return false;
      },
      () => `the CLI to be idle. Screen:\n${this.screen.text()}`,
      timeoutMs,
      50,
    );
  }

  waitForScreen(pattern: RegExp, timeoutMs = 15_000): Promise<RegExpMatchArray> {
    return Promise.race([
      this.screen.waitFor(pattern, timeoutMs),
      this.exited.then((e) => {
        throw new Error(`CLI exited (${JSON.stringify(e)}) while waiting for ${pattern}. Screen:\n${this.screen.text()}`);
      }),
    ]);
  }

  /** Types text as a paste-free burst of keystrokes. */
  type(text: string): void {
    this.proc.write(text);
  }

  /** Types `text`, then presses Enter after a pause: the CLI's input treats text and Enter that
   * arrive in one read as a paste, and a paste's newline does not submit. */
  async submit(text: string): Promise<void> {
    this.type(text);
    await sleep(SUBMIT_PAUSE_MS);
    this.proc.write(ENTER);
  }

  pressEnter(): void {
    this.proc.write(ENTER);
  }

  pressEscape(): void {
    this.proc.write(ESC);
  }

  /** Sends raw bytes (arrow keys etc.). */
  press(seq: string): void {
    this.proc.write(seq);
  }

  /** Answers the permission dialog that is on screen. */
  async answerPermission(answer: "yes" | "no", timeoutMs = 15_000): Promise<void> {
    await this.waitForScreen(PERMISSION_PROMPT, timeoutMs);
    await sleep(150);
    // On a loaded machine a key can reach the dialog before it listens (seen once in CI: the
    // prompt stayed up, unanswered). If the screen is still exactly the dialog seconds later, the
    // key was lost: press it again (a taken key always redraws the screen).
    for (let attempt = 0; attempt < 3; attempt++) {
      const dialog = this.screen.text();
      this.proc.write(answer === "yes" ? PERMISSION_YES : PERMISSION_NO);
      const deadline = Date.now() + 3000;
      while (Date.now() < deadline && this.screen.text() === dialog && !this.exitInfo) await sleep(50);
      if (this.screen.text() !== dialog || this.exitInfo) return;
    }
  }

  /** `/clear`: the CLI starts a new transcript file with a new session id. */
  async clear(): Promise<void> {
    await this.submit("/clear");
  }

  /** `/exit`, then waits for the process to end (kills it if it does not). */
  async exit(timeoutMs = 10_000): Promise<ExitInfo> {
    if (!this.exitInfo) await this.submit("/exit");
    const timer = sleep(timeoutMs).then(() => undefined);
    const result = await Promise.race([this.exited, timer]);
    if (!result) this.kill();
    return this.exited;
  }

  /** Kills everything this session started (the CLI, its tools, its model server). */
  kill(): void {
    this.ns.killAll();
    if (this.exitInfo) return; // its pid may be another process's by now
    try {
      this.proc.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.kill();
    await Promise.race([this.exited, sleep(3000)]);
    this.ns.release();
    this.screen.dispose();
  }

  /** Processes in this session's namespace (e.g. to see that a tool's command really runs). */
  processes(): { pid: number; cmdline: string }[] {
    return this.ns.processes();
  }

  async waitForProcess(pattern: RegExp, timeoutMs = 15_000): Promise<{ pid: number; cmdline: string }> {
    return pollUntil(() => this.processes().find((p) => pattern.test(p.cmdline)), `a process matching ${pattern}`, timeoutMs);
  }

  /** After `/clear`: waits for the new transcript file (the one holding the `/clear` command
   * record) and returns its session id. */
  async waitForClearedSession(timeoutMs = 15_000): Promise<string> {
    const dir = this.paths.projectDir();
    return pollUntil(
      () => {
        for (const file of existsSync(dir) ? readdirSync(dir) : []) {
          if (!file.endsWith(".jsonl") || file === `${this.sessionId}.jsonl`) continue;
          if (readRecords(join(dir, file)).some(isUserText("<command-name>/clear</command-name>"))) return basename(file, ".jsonl");
        }
        return undefined;
      },
      `a transcript with /clear in ${dir}`,
      timeoutMs,
    );
  }

  transcriptPath(sessionId = this.sessionId): string {
    return this.paths.transcriptPath(sessionId);
  }

  projectDir(): string {
    return this.paths.projectDir();
  }

  sessionsDir(): string {
    return this.paths.sessionsDir();
  }

  records(sessionId = this.sessionId): TranscriptRecord[] {
    return readRecords(this.transcriptPath(sessionId));
  }

  waitForRecords(pred: (r: TranscriptRecord) => boolean, opts: { timeoutMs?: number; count?: number; what?: string; sessionId?: string } = {}) {
    return waitForRecords(this.transcriptPath(opts.sessionId ?? this.sessionId), pred, opts);
  }
}

/** The empty input line of the prompt box ("❯" then spaces or no-break spaces). */
export const READY = /^❯[\s\u00a0]*$/m;
/** Footer hint shown while a turn runs. */
export const BUSY = /esc to interrupt/;
/** 2.1.330's permission dialog. */
export const PERMISSION_PROMPT = /Do you want to proceed\?/;
export const PERMISSION_YES = "1";
export const PERMISSION_NO = ESC;
export const SUBMIT_PAUSE_MS = 200;
