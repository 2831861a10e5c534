/**
 * One argument as a POSIX shell (sh, dash, bash, zsh) reads it back, byte for byte. Used for every
 * command line or script Arcadia writes for a shell: the terminal's restart line, the test rig's
 * wrapper and namespace scripts, the demo's rc file. Hand-written rather than `shell-quote`: that
 * library is not a dependency, it prefers backslashes and double quotes (more rules to get right),
 * and the whole rule is one line.
 */

/** Characters no shell we write for acts on: such a word needs no quotes. A leading `=` does need
 * them: zsh replaces `=name` with the path of the command `name` (its EQUALS option, on by default). */
const PLAIN = /^[A-Za-z0-9_\-.,/:@%+][A-Za-z0-9_\-.,/:=@%+]*$/;

/** True when `arg` reads back unchanged without quotes (never the empty string: it would vanish). */
export function isPlainWord(arg: string): boolean {
  return PLAIN.test(arg);
}

/** `arg` as is when plain, else in single quotes (inside which nothing is special), each `'` written `'\''`. */
export function posixQuote(arg: string): string {
  return isPlainWord(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
