// A headless terminal that mirrors what a user would see in the CLI's pty, so tests can wait for
// on-screen text (prompts, permission dialogs) instead of guessing with sleeps.
import * as xtermModule from "@xterm/headless";

// The package is CommonJS: under native ESM (vitest) `Terminal` sits on `default`, under tsx's
// CommonJS transform it is a named export. Accept both.
const Terminal: typeof xtermModule.Terminal = xtermModule.Terminal ?? (xtermModule as unknown as { default: typeof xtermModule }).default.Terminal;

export class Screen {
  private readonly term: InstanceType<typeof Terminal>;
  private waiters = new Set<() => void>();

  constructor(cols: number, rows: number, reply: (data: string) => void) {
    this.term = new Terminal({ cols, rows, scrollback: 2000, allowProposedApi: true });
    // The CLI queries the terminal (cursor position, device attributes); answering like a real
    // terminal avoids start-up waits for replies that never come.
    this.term.onData(reply);
  }

  write(data: string): void {
    this.term.write(data, () => this.notify());
  }

  resize(cols: number, rows: number): void {
    this.term.resize(cols, rows);
  }

  /** The visible rows, right-trimmed, joined with "\n". */
  text(): string {
    const buf = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.term.rows; y++) lines.push(buf.getLine(buf.viewportY + y)?.translateToString(true) ?? "");
    return lines.join("\n");
  }

  /** Scrollback plus visible rows. */
  fullText(): string {
    const buf = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buf.length; y++) lines.push(buf.getLine(y)?.translateToString(true) ?? "");
    return lines.join("\n");
  }

  /** Resolves when `pattern` matches the visible screen; rejects with the screen on timeout. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const m = this.text().match(pattern);
        if (!m) return false;
        finish();
        resolve(m);
        return true;
      };
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(onChange);
      };
      const onChange = () => void check();
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`screen did not match ${pattern} within ${timeoutMs} ms. Screen:\n${this.text()}`));
      }, timeoutMs);
      this.waiters.add(onChange);
      check();
    });
  }

  dispose(): void {
    this.term.dispose();
  }

  private notify(): void {
    for (const w of [...this.waiters]) w();
  }
}
