/**
 * What a card says when its `claude` ended before (or while) it ran: the CLI's own last words,
 * from the terminal's output (a typo in `arcadia.extraArgs` gives "error: unknown option
 * '--modle'"), or the exit code when it said nothing. Pure: escape sequences are dropped, the
 * most telling line is kept, and the text is bounded.
 */

const MAX_MESSAGE = 300;
/** CSI (colours, cursor moves), OSC (titles, shell integration marks), and lone escapes. */
// eslint-disable-next-line no-control-regex -- terminal escape sequences are what this removes
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-_]/g;
const TELLING = /error|unknown option|not found|no such|cannot|can't|failed|invalid|denied|requires/i;

export function exitMessage(output: string, exitCode: number | undefined): string | null {
  const lines = output
    .replace(ESCAPES, "")
    .split(/\r?\n|\r/)
    // eslint-disable-next-line no-control-regex -- control characters left after the escapes go too
    .map((line) => line.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "").trim())
    .filter((line) => line !== "");
  const telling = [...lines].reverse().find((line) => TELLING.test(line));
  const line = telling ?? lines.at(-1);
  if (line !== undefined) return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
  if (exitCode === undefined || exitCode === 0) return null;
  return `exit code ${exitCode}`;
}
