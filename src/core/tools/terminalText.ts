/**
 * What a terminal's raw output says, as text for an agent: escape sequences (colours, cursor
 * moves, the shell integration's own OSC 633/133 marks, titles) removed, CRLF → LF, and a carriage
 * return that redraws a line (progress bars) keeping only the line's last state.
 */
// Control characters are the point of these patterns.
/* eslint-disable no-control-regex */
// CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), other two-byte escapes; C1 CSI (0x9b) too.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|\x1b\][\s\S]*?(?:\x07|\x1b\\)|\x1b[PX^_][\s\S]*?\x1b\\|\x1b[@-Z\\-_]/g;

export function terminalText(raw: string): string {
  const plain = raw.replace(ESCAPES, "").replace(/\r+\n/g, "\n");
  // "50%\r75%\r100%" shows as "100%": keep what follows the last lone \r of each line.
  return plain
    .split("\n")
    .map((line) => (line.includes("\r") ? line.slice(line.lastIndexOf("\r") + 1) : line))
    .join("\n")
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
}
/* eslint-enable no-control-regex */
