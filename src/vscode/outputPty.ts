/**
 * A pseudoterminal that shows a process's output (execute_command's commands, a race's checks).
 * Written to before VS Code opens it (a terminal not shown yet), it keeps the end of what came —
 * like scrollback, at most `maxChars` — and replays it after its banner once opened.
 */
import { vscode } from "./api";

/** What a terminal never opened keeps of its output. */
export const MAX_WAITING_CHARS = 1024 * 1024;

export interface OutputPty {
  pty: vscode.Pseudoterminal;
  write(text: string): void;
  dispose(): void;
}

export function outputPty(banner: string, on: { close(): void; ctrlC(): void }, maxChars = MAX_WAITING_CHARS): OutputPty {
  const emitter = new vscode.EventEmitter<string>();
  let waiting: string[] | undefined = [];
  let waitingChars = 0;
  const write = (text: string) => {
    if (!waiting) return emitter.fire(text);
    waiting.push(text);
    for (waitingChars += text.length; waitingChars > maxChars && waiting.length > 1;) waitingChars -= waiting.shift()!.length;
  };
  const pty: vscode.Pseudoterminal = {
    onDidWrite: emitter.event,
    open: () => {
      emitter.fire(`\x1b[2m${banner}\x1b[0m\r\n\r\n`);
      for (const text of waiting ?? []) emitter.fire(text);
      waiting = undefined;
    },
    close: () => on.close(),
    handleInput: (data) => {
      if (data === "\x03") on.ctrlC();
    },
  };
  return { pty, write, dispose: () => emitter.dispose() };
}
