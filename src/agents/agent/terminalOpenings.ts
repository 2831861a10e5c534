/**
 * Agents' terminals in the editor area are opened one after another: each waits until the one
 * opened before it has its shell (its process id), `waitMs` at most. VS Code starts such a
 * terminal's shell only while it is in front: with persistent sessions (VS Code's default), three
 * opened in one go as a new window's first action left the two behind the one in front without a
 * shell for good — no process id, no claude, a card "Starting…" forever (issue 33;
 * test/e2e/fanOutFirst.e2e.test.ts). Opened in turn, each is in front while its shell starts. In
 * the panel they open together (a shell there took 5–13 s on a loaded machine: in turn, five would
 * wait a minute). Either way a shell that does not start within `waitMs` holds nobody up: the
 * launch goes on without its pid (the card then says it did not start, agentReadiness.ts).
 */
import type { TerminalHandle } from "../ports";

/** How long a terminal may take to get its shell before the next one opens anyway (seen: 5–13 s on a loaded machine). */
export const SHELL_WAIT_MS = 15_000;

export interface OpenedTerminal {
  terminal: TerminalHandle;
  /** Its shell's pid; undefined when it had none within the wait (it may still come: `terminal.processId()`). */
  shell: Promise<number | undefined>;
}

export class TerminalOpenings {
  /** Settles once the terminal opened last has its shell, or its wait is over. */
  private last: Promise<unknown> = Promise.resolve();

  constructor(private readonly waitMs = SHELL_WAIT_MS) {}

  /**
   * `inTurn`: runs `open` once the terminal opened before in turn has its shell (or its wait ended),
   * and the next in turn waits for this one's. Else at once.
   */
  async open(open: () => TerminalHandle, inTurn: boolean): Promise<OpenedTerminal> {
    if (!inTurn) {
      const terminal = open();
      return { terminal, shell: this.shellOf(terminal) };
    }
    const turn = this.last;
    let opened!: (terminal: OpenedTerminal | undefined) => void;
    this.last = new Promise<OpenedTerminal | undefined>((resolve) => (opened = resolve)).then((o) => o?.shell);
    await turn;
    try {
      const terminal = open();
      const result = { terminal, shell: this.shellOf(terminal) };
      opened(result);
      return result;
    } catch (err) {
      opened(undefined);
      throw err;
    }
  }

  private shellOf(terminal: TerminalHandle): Promise<number | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), this.waitMs)));
    const pid = terminal.processId().catch(() => undefined);
    return Promise.race([pid, late]).finally(() => clearTimeout(timer));
  }
}
