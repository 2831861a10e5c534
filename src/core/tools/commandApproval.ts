/**
 * Which commands need the user's Allow before they run, from two settings:
 *   arcadia.mcp.commandApproval: "always" | "never" | "unlessAllowListed" (default)
 *   arcadia.mcp.allowedCommands: string[] — a command runs without asking when it equals an entry
 *     or starts with an entry followed by a space ("npm test" allows "npm test -- --watch").
 * Under "unlessAllowListed" an allowed prefix still asks when the command line:
 * - chains or redirects (; && || | ` $( > <, newline): "npm test && curl … | sh" must not ride
 *   on an allowed prefix;
 * - has an argument (after the entry) that reaches out of the workspace or writes a file: see
 *   `outsideArgument`. "cat" is allowed so that "cat src/a.ts" runs at once, not
 *   "cat ~/.ssh/id_rsa"; "git diff" not "git diff --output=/home/u/.bashrc".
 * Both settings are application-scoped (package.json): a cloned repository's .vscode/settings.json
 * cannot switch approvals off.
 */
export type CommandApprovalMode = "always" | "never" | "unlessAllowListed";

const CHAINING = /[;&|`<>\n\r]|\$\(/;

/**
 * Why an argument asks anyway, or undefined when it may run unasked. On purpose simple (and
 * listed in the setting's description), erring towards asking:
 * - an absolute or home path: `/`, `~` or `\` at the start or after a non-name character
 *   (`--file=/etc/x`, `@/etc/x`, `C:\x`), or right after a one-letter option (`-o/x`, `-I/usr`);
 * - a parent folder: `..`, or a glob or brace that can make one (`.*`, `.?`, `.[`, `{`);
 * - a variable: `$` (or cmd's `%NAME%`), which may expand to any path;
 * - a write option: `--output` (and the abbreviations `--o`, `--ou`, `--out…`), `-o`.
 * Relative paths (`src/a.ts`, `./b`, `-- --watch`) pass.
 */
export function outsideArgument(arg: string): string | undefined {
  // The shell drops quotes: "/etc/passwd" and '/etc'/passwd are /etc/passwd.
  const a = arg.replace(/["']/g, "");
  if (/(^|[^\w.-])[/~\\]/.test(a) || /^-[A-Za-z][/~\\]/.test(a)) return "an absolute or home path";
  if (a.includes("..") || /\.[*?[]/.test(a) || a.includes("{")) return "a parent folder";
  if (a.includes("$") || /%\w+%/.test(a)) return "a variable";
  if (/^--(o|ou|out[^=]*)(=|$)/.test(a) || a.startsWith("-o")) return "an output file";
  return undefined;
}

export function commandApprovalPolicy(mode: CommandApprovalMode, allowed: readonly string[]): (command: string) => boolean {
  const entries = allowed.map((a) => a.trim()).filter((a) => a.length > 0);
  return (command) => {
    if (mode === "never") return false;
    if (mode === "always") return true;
    const line = command.trim();
    if (CHAINING.test(line)) return true;
    // An argument the user wrote into the entry itself ("cat /etc/hosts") was their choice.
    const runsUnasked = (entry: string) =>
      line === entry || (line.startsWith(`${entry} `) && line.slice(entry.length).split(/\s+/).every((arg) => outsideArgument(arg) === undefined));
    return !entries.some(runsUnasked);
  };
}
