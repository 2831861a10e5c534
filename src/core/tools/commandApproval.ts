/**
 * Which commands need the user's Allow before they run, from two settings:
 *   arcadia.mcp.commandApproval: "always" | "never" | "unlessAllowListed" (default)
 *   arcadia.mcp.allowedCommands: string[] — a command runs without asking when it equals an entry
 *     or starts with an entry followed by a space ("npm test" allows "npm test -- --watch").
 * Under "unlessAllowListed" an allow-listed command still asks when
 * - its text chains or redirects (; && || | ` $( > <, newline), or has an argument that reaches out
 *   of the workspace or writes a file by its text alone (`outsideArgument`);
 * - on disk, at decision time (the text says nothing about what a folder holds):
 *   1. its folder (cwd) is not inside a workspace folder, or does not belong to that folder's own
 *      repository: a `.git` (folder, file or link) in cwd or in a folder between the workspace
 *      folder and cwd, a folder shaped like a git directory (HEAD + config/objects/refs) on that
 *      way, or cwd inside a `.git` folder. Git finds its repository by walking up from cwd and
 *      runs what that repository's config says (`core.fsmonitor`, `core.pager`…), so `git status`
 *      in a nested repository runs whatever its author wanted;
 *   2. an argument leads out of the workspace once symlinks are followed (`cat link` with
 *      `link -> /proc/self/environ`), also each name an unquoted glob expands to;
 *   3. a package-script runner (npm, npx, pnpm, pnpx, yarn, bun, bunx, make) runs anywhere but a
 *      workspace folder's root, or gets an option before `--` (`--prefix sub`, `--script-shell=x`
 *      choose another package or shell): it runs scripts from the package.json / Makefile of its
 *      folder, and only the root's are the user's own.
 * The decision carries a reason, shown with the approval so the user knows why they are asked.
 * Both settings are application-scoped (package.json): a cloned repository's .vscode/settings.json
 * cannot switch approvals off.
 */
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { CommandDisk } from "./commandDisk";
import { isInside } from "./paths";
import { shellWords, type ShellWord } from "./shellWords";

export type CommandApprovalMode = "always" | "never" | "unlessAllowListed";

export interface CommandApprovalSettings {
  mode: CommandApprovalMode;
  allowed: readonly string[];
}

export interface CommandApprovalDecision {
  needsApproval: boolean;
  /** Why the user is asked, in words (shown with the approval); none when it runs unasked. */
  reason?: string;
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
  if (settings.mode === "always") return { decision: { needsApproval: true, reason: "every command asks (arcadia.mcp.commandApproval is \"always\")" } };
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

  const words = shellWords(text.rest);
  if (!words) return asks("a quote is never closed");
  const syntax = words.find((w) => w.syntax);
  if (syntax) return asks(`its argument \`${syntax.text}\` holds an unquoted ( or ): shell syntax (a subshell, or a zsh glob qualifier that can run code)`);

  const root = await workspaceFolderOf(request.cwd, request.folders, disk);
  if (root === undefined) return asks(`its folder ${request.cwd} is outside the workspace folders`);
  const foreign = await foreignRepository(root, request.cwd, disk);
  if (foreign) return asks(foreign);

  const program = programName(request.command);
  if (SCRIPT_RUNNERS.has(program)) {
    if (request.cwd !== root) return asks(`${program} runs the scripts of the package (or Makefile) in its folder, and only runs unasked at a workspace folder's root (${root}), not in ${request.cwd}`);
    const option = optionBeforeDoubleDash(words);
    if (option) return asks(`${program} option \`${option}\` can choose another package, folder or script shell: options go after \`--\` to reach the script`);
  }

  for (const word of words) {
    const leak = await argumentLeak(word, request.cwd, request.folders, disk);
    if (leak) return asks(leak);
  }
  return { needsApproval: false };
}

/** The innermost workspace folder (real path) holding `cwd`, or undefined. */
async function workspaceFolderOf(cwd: string, folders: readonly string[], disk: CommandDisk): Promise<string | undefined> {
  let best: string | undefined;
  for (const folder of folders) {
    const real = await disk.realpath(folder).catch(() => undefined);
    if (real !== undefined && isInside(cwd, real) && (best === undefined || real.length > best.length)) best = real;
  }
  return best;
}

/**
 * Why `cwd` may belong to another repository than the workspace folder's own, or undefined.
 * Git walks up from cwd and takes the first folder holding `.git`, or the first folder that is
 * itself a git directory (a bare repository): everything between the workspace folder and cwd,
 * cwd included, must be neither. The workspace folder's own `.git` is the user's.
 */
async function foreignRepository(root: string, cwd: string, disk: CommandDisk): Promise<string | undefined> {
  const parts = relative(root, cwd).split(sep).filter(Boolean);
  if (parts.some((p) => p.toLowerCase() === ".git")) return `its folder ${cwd} is inside a .git folder, where git takes the folder for a repository with its own configuration`;
  let dir = root;
  for (const part of parts) {
    dir = join(dir, part);
    if ((await disk.entry(join(dir, ".git"))) !== undefined) return `its folder is in another git repository (${join(dir, ".git")}), whose configuration git would follow (it can run programs, e.g. core.fsmonitor)`;
    if (await looksLikeGitDirectory(dir, disk)) return `its folder is in a folder shaped like a git directory (${dir}: HEAD and config/objects/refs), which git would use as a repository with its own configuration`;
  }
  return undefined;
}

/** HEAD plus config, objects, refs or commondir: what git could take for a repository (erring wide). */
async function looksLikeGitDirectory(dir: string, disk: CommandDisk): Promise<boolean> {
  if ((await disk.entry(join(dir, "HEAD"))) === undefined) return false;
  for (const name of ["config", "objects", "refs", "commondir"]) if ((await disk.entry(join(dir, name))) !== undefined) return true;
  return false;
}

/** The program's name: the first word, without a folder or a Windows extension. */
function programName(command: string): string {
  const first = shellWords(command.trim())?.[0]?.text ?? "";
  return basename(first.replace(/\\/g, "/")).replace(/\.(cmd|exe|bat|ps1)$/i, "").toLowerCase();
}

function optionBeforeDoubleDash(words: readonly ShellWord[]): string | undefined {
  for (const w of words) {
    if (w.text === "--") return undefined;
    if (w.text.startsWith("-")) return w.text;
  }
  return undefined;
}

/**
 * Why an argument leads out of the workspace on disk, or undefined. A word is taken as the path
 * it could name (relative to cwd), the value of `--opt=value` too; a word that names nothing
 * stays where it is (inside). Unquoted globs: each name they expand to.
 */
async function argumentLeak(word: ShellWord, cwd: string, folders: readonly string[], disk: CommandDisk): Promise<string | undefined> {
  let candidate = word.text;
  if (candidate.startsWith("-")) {
    const eq = candidate.indexOf("=");
    if (eq < 0) return undefined;
    candidate = candidate.slice(eq + 1);
  }
  if (candidate === "") return undefined;
  let paths: string[];
  if (word.glob) {
    if (candidate.includes("**")) return `its argument \`${word.text}\` is a recursive glob, which may reach anything below`;
    paths = await disk.expandGlob(candidate, cwd, MAX_GLOB_MATCHES).catch(() => []);
    if (paths.length > MAX_GLOB_MATCHES) return `its argument \`${word.text}\` matches over ${MAX_GLOB_MATCHES} names`;
  } else {
    paths = [isAbsolute(candidate) ? candidate : resolve(cwd, candidate)];
  }
  for (const path of paths) {
    const real = await disk.realpath(path).catch(() => undefined);
    if (real === undefined) return `its argument \`${word.text}\` cannot be resolved (a symlink loop?)`;
    if (!(await insideAny(real, folders, disk))) return `its argument \`${word.text}\` leads to ${real}, outside the workspace`;
  }
  return undefined;
}

async function insideAny(real: string, folders: readonly string[], disk: CommandDisk): Promise<boolean> {
  for (const folder of folders) {
    const realFolder = await disk.realpath(folder).catch(() => undefined);
    if (realFolder !== undefined && isInside(real, realFolder)) return true;
  }
  return false;
}
