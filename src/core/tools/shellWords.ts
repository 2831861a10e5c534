/**
 * A command line's words as a POSIX shell would pass them to the program, for the approval
 * policy's disk checks: quotes removed, backslash escapes applied, and for each word whether it
 * holds characters the shell would still act on (an unquoted glob `*` `?` `[`, an unquoted `(` or
 * `)`: a subshell in bash, a glob qualifier that runs code in zsh).
 *
 * Only for lines the policy already let through its text rules (no `;`, `&`, `|`, `<`, `>`,
 * backtick, `$(`, newline): what is left is words, quotes, escapes and globs. A hand-written
 * splitter rather than a library: the policy needs to know which characters were quoted, which
 * the common parsers (shell-quote) do not keep, and it is twenty lines.
 */

export interface ShellWord {
  /** The word as the program receives it (before glob expansion). */
  text: string;
  /** An unquoted `*`, `?` or `[`: the shell replaces the word with the names it matches. */
  glob: boolean;
  /**
   * The word as a pattern (globExpansion.ts): `text` with every quoted or escaped `*`, `?`, `[`
   * and every backslash escaped by a backslash, so only the unquoted ones stay special.
   */
  pattern: string;
  /** An unquoted `(` or `)`: shell syntax, not a plain argument. */
  syntax: boolean;
}

/** The words, or undefined when a quote is never closed (the shell would refuse the line too). */
export function shellWords(line: string): ShellWord[] | undefined {
  const words: ShellWord[] = [];
  let current: ShellWord | undefined;
  const word = () => (current ??= { text: "", glob: false, syntax: false, pattern: "" });
  /** Text the shell took literally: special to a pattern only when unquoted. */
  const literal = (w: ShellWord, text: string) => {
    w.text += text;
    w.pattern += text.replace(/[\\*?[]/g, "\\$&");
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (ch === " " || ch === "\t") {
      if (current) words.push(current);
      current = undefined;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return undefined;
      literal(word(), line.slice(i + 1, end));
      i = end;
    } else if (ch === '"') {
      const w = word();
      for (i++; ; i++) {
        if (i >= line.length) return undefined;
        const c = line[i] as string;
        if (c === '"') break;
        // Inside double quotes a backslash escapes only these; elsewhere it stays.
        if (c === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1] as string)) literal(w, line[++i] as string);
        else literal(w, c);
      }
    } else if (ch === "\\") {
      if (i + 1 < line.length) literal(word(), line[++i] as string);
    } else {
      const w = word();
      if (ch === "*" || ch === "?" || ch === "[") w.glob = true;
      if (ch === "(" || ch === ")") w.syntax = true;
      w.text += ch;
      w.pattern += ch;
    }
  }
  if (current) words.push(current);
  return words;
}
