/**
 * Where and how a command runs, and whether the user is asked first: the approval policy
 * (commandApproval.ts) joined with the sandbox (core/sandbox).
 * - Unasked (allow-listed, every check passed): its checked argv, no shell, inside the sandbox.
 *   Where there is no sandbox (not Linux, bubblewrap missing or refused, arcadia.sandbox "off"),
 *   only a short list of read-only commands runs unasked, unsandboxed; every other asks, saying why.
 * - Asked and allowed: the text as shown, through the user's shell; in the sandbox only with
 *   arcadia.sandbox "allCommands".
 * - arcadia.mcp.commandApproval "never": nothing asks; the shell runs the text, in the sandbox when
 *   there is one (where there is none this is the user's own choice, said in the setting).
 * - `outside_sandbox` from the agent: always asks.
 * - A workspace folder that is the home folder or above it: every command asks, whatever the settings.
 */
import { realpath } from "node:fs/promises";
import { homedir } from "node:os";
import type { SandboxAvailability, SandboxMode } from "../sandbox";
import { isInside } from "../util";
import { decideCommandApproval, programName, type CommandApprovalRequest } from "./commandApproval";
import { nodeCommandDisk, type CommandDisk } from "./commandDisk";
import { realWorkspaceFolders } from "./paths";
import type { ToolPorts } from "./ports";
import { programPath } from "./programPath";

export interface CommandPlanRequest extends CommandApprovalRequest {
  sandbox: { mode: SandboxMode; availability: SandboxAvailability };
  /** The agent asked to run it outside the sandbox. */
  outsideSandbox: boolean;
}

export interface CommandPlan {
  /** Why the user is asked first; absent: it runs at once. */
  ask?: string;
  /** Run as these words with no shell (checked, unasked); absent: the text through the shell. */
  argv?: string[];
  sandboxed: boolean;
}

/** What runs unasked where nothing confines it: reads of checked paths, nothing that writes or runs code it finds. */
export const READ_ONLY_COMMANDS: readonly string[] = ["ls", "pwd", "cat", "echo", "head", "tail", "wc", "git status", "git diff", "git log"];

type SandboxState = CommandPlanRequest["sandbox"];

const usable = ({ mode, availability }: SandboxState) => mode !== "off" && availability.available;
/** Where a command the user approved runs: in the sandbox only with "allCommands". */
const approvedRunsInSandbox = (sandbox: SandboxState) => usable(sandbox) && sandbox.mode === "allCommands";

export async function planCommand(request: CommandPlanRequest, disk: CommandDisk): Promise<CommandPlan> {
  const approvedInSandbox = approvedRunsInSandbox(request.sandbox);
  if (request.outsideSandbox) {
    const how = approvedInSandbox ? ' (arcadia.sandbox is "allCommands": it runs in the sandbox all the same)' : "";
    return { ask: `the agent asked to run it outside the sandbox${how}`, sandboxed: approvedInSandbox };
  }
  const decision = await decideCommandApproval(request, disk);
  if (decision.needsApproval) return { ...(decision.reason ? { ask: decision.reason } : {}), sandboxed: approvedInSandbox };
  // "never": nothing was checked, so the text runs as written.
  if (!decision.argv) return { sandboxed: usable(request.sandbox) };
  if (usable(request.sandbox)) return { argv: decision.argv, sandboxed: true };
  const why = notReadOnly(decision.argv);
  if (why) return { ask: `${noSandbox(request.sandbox)}, so only read-only commands run unasked, and ${why}`, sandboxed: false };
  return { argv: decision.argv, sandboxed: false };
}

function noSandbox({ mode, availability }: SandboxState): string {
  if (mode === "off") return 'arcadia.sandbox is "off"';
  return availability.available ? "there is no sandbox" : `there is no sandbox (${availability.reason})`;
}

/** Why `argv` is not one of READ_ONLY_COMMANDS as they are safe without a sandbox, or undefined. */
export function notReadOnly(argv: readonly string[]): string | undefined {
  const [first = "", ...rest] = argv;
  const words = [programName(first), ...rest];
  const entry = READ_ONLY_COMMANDS.find((c) => c.split(" ").every((w, i) => words[i] === w));
  if (!entry) return `\`${programName(first)}\` is not one of them (${READ_ONLY_COMMANDS.join(", ")})`;
  if (entry === "ls") {
    for (const arg of rest) {
      if (arg === "--") break;
      // -L / --dereference follow every link, -R then walks wherever they lead.
      if (/^-[^-]*L/.test(arg) || arg.startsWith("--d")) return `ls \`${arg}\` follows symlinks wherever they lead`;
    }
  }
  return undefined;
}

/**
 * Why nothing runs unasked when a workspace folder is the home folder or holds it: every key,
 * token and other project is then inside the folder a command may read (and in part write).
 */
async function homeWorkspaceFolder(ports: ToolPorts): Promise<string | undefined> {
  const given = ports.home ?? homedir();
  const home = await realpath(given).catch(() => given);
  for (const folder of await realWorkspaceFolders(ports.files)) {
    if (!isInside(home, folder)) continue;
    const what = folder === home ? "is your home folder" : "holds your home folder";
    return `the workspace folder ${folder} ${what}: your keys, tokens and other projects are in it, so every command asks`;
  }
  return undefined;
}

const NO_SANDBOX: SandboxAvailability = { available: false, reason: "this host has none", fix: "" };

/**
 * The plan for one execute_command call on these ports: settings read now, the disk as it is
 * now, the program found now (a name that is no program on PATH asks: see programPath.ts).
 */
export async function planCommandFor(ports: ToolPorts, call: { command: string; cwd: string; outsideSandbox: boolean }): Promise<CommandPlan> {
  const disk = nodeCommandDisk(ports.files);
  const sandbox = { mode: ports.sandbox?.settings().mode ?? "unaskedCommands", availability: (await ports.sandbox?.availability()) ?? NO_SANDBOX };
  const home = await homeWorkspaceFolder(ports);
  if (home) return { ask: home, sandboxed: approvedRunsInSandbox(sandbox) };
  const plan = await planCommand(
    { command: call.command, cwd: call.cwd, folders: ports.files.folders(), settings: ports.commandApproval(), sandbox, outsideSandbox: call.outsideSandbox },
    disk,
  );
  if (!plan.argv) return plan;
  const program = await programPath(plan.argv[0] as string, call.cwd, await realWorkspaceFolders(ports.files), process.env.PATH);
  if (program === undefined) {
    return {
      ask: `\`${plan.argv[0]}\` is no program on PATH (outside the workspace): only programs run unasked, with no shell`,
      sandboxed: approvedRunsInSandbox(sandbox),
    };
  }
  return { ...plan, argv: [program, ...plan.argv.slice(1)] };
}
