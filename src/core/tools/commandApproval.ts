/**
 * Which commands need the user's Allow before they run, from two settings:
 *   arcadia.mcp.commandApproval: "always" | "never" | "unlessAllowListed" (default)
 *   arcadia.mcp.allowedCommands: string[] — a command runs without asking when it equals an entry
 *     or starts with an entry followed by a space ("npm test" allows "npm test -- --watch").
 * Under "unlessAllowListed" an allow-listed command still asks when
 * - its text chains or redirects (; && || | ` $( > <, newline), or has an argument that reaches out
 *   of the workspace or writes a file by its text alone (`outsideArgument`);
 * - on disk, at decision time (the text says nothing about what a folder holds):
 *   1. its folder (cwd) is not inside a workspace folder, or git there would use a repository
 *      other than the workspace's own (git/repositoryTrust.ts: a nested `.git`, a folder — the
 *      workspace folder itself included — shaped like a git directory, a `.git` file leading
 *      elsewhere in the workspace). Git runs what that repository's config says
 *      (`core.fsmonitor`, filters…), so `git status` there runs whatever its author wanted;
 *   2. an argument leads out of the workspace once symlinks are followed (`cat link` with
 *      `link -> /proc/self/environ`), also each name an unquoted `*` or `?` expands to; a bracket
 *      expression (`[[=e=]]nv`) asks: Arcadia expands only `*` and `?` itself (globExpansion.ts);
 *   3. a package-script runner (npm, npx, pnpm, pnpx, yarn, bun, bunx, make) runs anywhere but a
 *      workspace folder's root, or gets an option before `--` (`--prefix sub`, `--script-shell=x`
 *      choose another package or shell): it runs scripts from the package.json / Makefile of its
 *      folder, and only the root's are the user's own.
 * What runs unasked is what was checked: the decision carries the argv (words as the shell would
 * pass them, names expanded here), which runs with no shell in between (commandPlan.ts decides
 * where: in the sandbox, or without one only if read-only).
 * The decision carries a reason, shown with the approval so the user knows why they are asked.
 * Both settings are application-scoped (package.json): a cloned repository's .vscode/settings.json
 * cannot switch approvals off.
 */
import { basename, isAbsolute, resolve } from "node:path";
import { isInside } from "../util";
import type { CommandDisk } from "./commandDisk";
import type { CommandApprovalMode, CommandApprovalSettings } from "./ports";
import { foreignRepository } from "../git";
import { expandPattern } from "./globExpansion";
import { shellWords, type ShellWord } from "./shellWords";

export type { CommandApprovalMode, CommandApprovalSettings };

export interface CommandApprovalDecision {
  needsApproval: boolean;
  /** Why the user is asked, in words (shown with the approval); none when it runs unasked. */
  reason?: string;
  /**
   * Allow-listed and checked: the program and its arguments exactly as they were checked, to run
   * as they are with no shell in between (`*` and `?` already expanded, globExpansion.ts).
   */
  argv?: string[];
}

export interface CommandApprovalRequest {
  command: string;
  /** The folder it runs in, symlinks resolved. */
  cwd: string;
  /** The workspace folders. */
  folders: readonly string[];
  settings: CommandApprovalSettings;
}

const CHAINING = /[;&|`<>\n\r]|\$\(/;

/** Programs that run scripts found from their folder (package.json, node_modules/.bin, Makefile). */
export const SCRIPT_RUNNERS: ReadonlySet<string> = new Set(["npm", "npx", "pnpm", "pnpx", "yarn", "bun", "bunx", "make"]);

/** More glob matches than this on one argument: asked, rather than checked one by one. */
const MAX_GLOB_MATCHES = 1000;

/**
 * Why an argument asks anyway by its text alone, or undefined when the text is fine. On purpose
 * simple (and listed in the setting's description), erring towards asking:
 * - an absolute or home path: `/`, `~` or `\` at the start or after a non-name character
 *   (`--file=/etc/x`, `@/etc/x`, `C:\x`), or right after a one-letter option (`-o/x`, `-I/usr`);
 * - a parent folder: `..`, or a glob or brace that can make one (`.*`, `.?`, `.[`, `{`);
 * - a variable: `$` (or cmd's `%NAME%`), which may expand to any path;
 * - a write option: `--output` (and the abbreviations `--o`, `--ou`, `--out…`), `-o`.
 * Relative paths (`src/a.ts`, `./b`, `-- --watch`) pass; where they lead is checked on disk.
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

type TextOutcome = { decision: CommandApprovalDecision } | { entry: string; rest: string };

/**
 * The rules that need only the text: the mode, the allow-list, chaining, `outsideArgument`.
 * Either a final decision, or the allow-list entry the command starts with (then the disk decides).
 */
export function commandTextDecision(settings: CommandApprovalSettings, command: string): TextOutcome {
  if (settings.mode === "never") return { decision: { needsApproval: false } };
  if (settings.mode === "always") return { decision: { needsApproval: true, reason: 'every command asks (arcadia.mcp.commandApproval is "always")' } };
  const line = command.trim();
  if (CHAINING.test(line)) {
    return { decision: { needsApproval: true, reason: "it chains, pipes or redirects (; & | < > ` $( ): only a single allow-listed command runs unasked" } };
  }
  const entries = settings.allowed.map((a) => a.trim()).filter((a) => a.length > 0);
  let textReason: string | undefined;
  // The longest entry first: an argument the user wrote into the entry ("cat /etc/hosts") was their choice.
  for (const entry of [...entries].sort((a, b) => b.length - a.length)) {
    if (line !== entry && !line.startsWith(`${entry} `)) continue;
    const rest = line.slice(entry.length);
    const bad = rest
      .split(/\s+/)
      .map((arg) => ({ arg, why: outsideArgument(arg) }))
      .find((a) => a.why !== undefined);
    if (!bad) return { entry, rest };
    textReason ??= `its argument \`${bad.arg}\` is ${bad.why}`;
  }
  return { decision: { needsApproval: true, reason: textReason ?? "it is not on arcadia.mcp.allowedCommands" } };
}

/** The whole policy: the text rules, then (for an allow-listed command) the disk at this moment. */
export async function decideCommandApproval(request: CommandApprovalRequest, disk: CommandDisk): Promise<CommandApprovalDecision> {
  const text = commandTextDecision(request.settings, request.command);
  if ("decision" in text) return text.decision;
  const asks = (reason: string): CommandApprovalDecision => ({ needsApproval: true, reason });

  const words = shellWords(request.command.trim());
  if (!words) return asks("a quote is never closed");
  const syntax = words.find((w) => w.syntax);
  if (syntax) return asks(`its argument \`${syntax.text}\` holds an unquoted ( or ): shell syntax (a subshell, or a zsh glob qualifier that can run code)`);

  const folders = await realFolders(request.folders, disk);
  const root = innermostFolder(request.cwd, folders);
  if (root === undefined) return asks(`its folder ${request.cwd} is outside the workspace folders`);
  const foreign = await foreignRepository(root, request.cwd, folders, disk);
  if (foreign) return asks(foreign);

  const program = programName(words[0]?.text ?? "");
  if (SCRIPT_RUNNERS.has(program)) {
    if (request.cwd !== root)
      return asks(
        `${program} runs the scripts of the package (or Makefile) in its folder, and only runs unasked at a workspace folder's root (${root}), not in ` +
          `${request.cwd}`,
      );
    const option = optionBeforeDoubleDash(words.slice(1));
    if (option) return asks(`${program} option \`${option}\` can choose another package, folder or script shell: options go after \`--\` to reach the script`);
  }

  // What runs: the words as the shell would pass them, `*` and `?` expanded here (no shell runs it).
  const argv: string[] = [];
  const entryWords = shellWords(text.entry)?.length ?? 1;
  for (const [i, word] of words.entries()) {
    const names = await expandedWord(word, request.cwd, disk);
    if (typeof names === "string") return asks(names);
    // The entry's own words were the user's choice ("cat /etc/hosts"); what the agent added is checked.
    if (i >= entryWords) {
      for (const name of names) {
        const leak = await argumentLeak(word.text, name, request.cwd, folders, disk);
        if (leak) return asks(leak);
      }
    }
    argv.push(...names);
  }
  return { needsApproval: false, argv };
}

/** The names a word becomes, or why it asks. */
async function expandedWord(word: ShellWord, cwd: string, disk: CommandDisk): Promise<string[] | string> {
  if (!word.glob) return [word.text];
  const expansion = await expandPattern(word.pattern, cwd, disk, MAX_GLOB_MATCHES);
  if ("unsupported" in expansion) {
    return (
      `its argument \`${word.text}\` holds ${expansion.unsupported}: Arcadia expands only * and ? itself (a bracket expression such as [[=e=]] ` +
      `matches names a check cannot foresee)`
    );
  }
  if ("tooMany" in expansion) return `its argument \`${word.text}\` matches over ${MAX_GLOB_MATCHES} names`;
  return expansion.matches.length > 0 ? expansion.matches : [word.text];
}

/** The innermost workspace folder (real paths) holding `cwd`, or undefined. */
function innermostFolder(cwd: string, folders: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const real of folders) if (isInside(cwd, real) && (best === undefined || real.length > best.length)) best = real;
  return best;
}

async function realFolders(folders: readonly string[], disk: CommandDisk): Promise<string[]> {
  const out: string[] = [];
  for (const folder of folders) {
    const real = await disk.realpath(folder).catch(() => undefined);
    if (real !== undefined) out.push(real);
  }
  return out;
}

/** The program's name: the first word, without a folder or a Windows extension. */
export function programName(first: string): string {
  return basename(first.replace(/\\/g, "/"))
    .replace(/\.(cmd|exe|bat|ps1)$/i, "")
    .toLowerCase();
}

function optionBeforeDoubleDash(words: readonly ShellWord[]): string | undefined {
  for (const w of words) {
    if (w.text === "--") return undefined;
    if (w.text.startsWith("-")) return w.text;
  }
  return undefined;
}

/**
 * Why an argument leads out of the workspace on disk, or undefined. It is taken as the path it
 * could name (relative to cwd), the value of `--opt=value` too; a name that is nowhere stays
 * where it is (inside). `shown` is the word as the agent wrote it, for the reason.
 */
async function argumentLeak(shown: string, arg: string, cwd: string, folders: readonly string[], disk: CommandDisk): Promise<string | undefined> {
  let candidate = arg;
  if (candidate.startsWith("-")) {
    const eq = candidate.indexOf("=");
    if (eq < 0) return undefined;
    candidate = candidate.slice(eq + 1);
  }
  if (candidate === "") return undefined;
  const real = await disk.realpath(isAbsolute(candidate) ? candidate : resolve(cwd, candidate)).catch(() => undefined);
  if (real === undefined) return `its argument \`${shown}\` cannot be resolved (a symlink loop?)`;
  if (!folders.some((folder) => isInside(real, folder))) return `its argument \`${shown}\` leads to ${real}, outside the workspace`;
  return undefined;
}
