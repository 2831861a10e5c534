/**
 * `!` forms an interactive bash would history-expand (`!!`, `!-3`, `!?secret?`, `!ls`, `!$`…).
 * Commands run as `<shell> -c`, where history expansion is off, so they would run with a literal
 * `!` — not what an agent that wrote `!!` meant, and text a person reading the approval may take
 * for a history recall. The command is refused with a message to write it out in full.
 *
 * Bash expands `!` unless it is followed by a blank, the end of the line, `=` or `(` (its
 * history_expansion exceptions), or sits inside single quotes. We also let `!` through when a
 * quote closes right after it (`echo "hi!"`, bash's own exception for a `!` before the closing
 * double quote), so the common shapes stay allowed: `[ ! -f x ]`, `a != b`, `find . ! -name x`,
 * `echo 'hi!'`, `echo "done!"`, `${!name}`.
 */

export interface HistoryExpansion {
  /** The `!` form as written, e.g. "!!", "!-3", "!?secret?", "!ls". */
  form: string;
  /** 1-based, in characters (code points) of the command. */
  position: number;
}

/** Characters after `!` that keep it a literal `!` (bash: blank, end, `=`, `(`; ours: a closing quote). */
const LITERAL_AFTER = new Set([" ", "\t", "=", "(", '"', "'"]);

export function historyExpansion(command: string): HistoryExpansion | undefined {
  const chars = [...command];
  let inSingle = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === "'") inSingle = !inSingle;
    else if (ch === "\\" && !inSingle)
      i++; // \! is a literal ! in bash
    else if (ch === "!" && !inSingle) {
      const next = chars[i + 1];
      if (next === undefined || LITERAL_AFTER.has(next)) continue;
      // `${!name}` is indirect expansion, which bash leaves to the parser.
      if (chars[i - 1] === "{" && chars[i - 2] === "$") continue;
      return { form: formAt(chars, i), position: i + 1 };
    }
  }
  return undefined;
}

/** The event designator as bash would read it, for the message: `!!`, `!-3`, `!?text?`, `!word`. */
function formAt(chars: string[], at: number): string {
  const rest = chars.slice(at + 1);
  const next = rest[0] as string;
  if (next === "?") {
    const close = rest.indexOf("?", 1);
    return `!${rest.slice(0, close < 0 ? rest.length : close + 1).join("")}`;
  }
  if ("!$^*#".includes(next)) return `!${next}`;
  let end = 0;
  while (end < rest.length && !/[\s;&|<>()'"`]/.test(rest[end] as string)) end++;
  return `!${rest.slice(0, Math.max(end, 1)).join("")}`;
}

/** Why the command is refused and what to do instead, for the agent. */
export function historyExpansionMessage(found: HistoryExpansion): string {
  return (
    `The command was not run: it contains \`${found.form}\` at character ${found.position} (counting from 1), which an interactive shell would ` +
    `replace with a line from its history. ` +
    "Commands run non-interactively, so history is not available: write the command out in full. " +
    "If you meant a literal `!`, put it in single quotes (e.g. 'hello!x') or follow it with a space."
  );
}
