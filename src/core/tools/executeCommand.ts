/**
 * execute_command (declared in core/toolDeclarations/executeCommand.ts): runs a shell command in a terminal
 * the user can see (one per agent), and answers with its output and exit code. The command can be
 * force-finished from the panel: Cancel interrupts it; Complete hands back the output so far
 * (completeWithOutputSoFar, with the declaration).
 */
import type { CallContext } from "../mcp";
import { jsonResult, type ToolResult } from "../mcp";
import type { ArgsOf } from "../toolDeclarations";
import { DEFAULT_COMMAND_TIMEOUT_SECONDS, executeCommand, MAX_OUTPUT_CHARS } from "../toolDeclarations";
import { implement } from "./implement";
import { reviewLeftBehind } from "./leftBehindReview";
import { forbiddenCharacterMessage, forbiddenCommandCharacter } from "./commandCharacters";
import { planCommandFor } from "./commandPlan";
import { historyExpansion, historyExpansionMessage } from "./historyExpansion";
import { realWorkspaceFolders, resolveToolPath } from "./paths";
import type { CommandEnd, ToolPorts } from "./ports";
import { limitMessage, type SandboxLaunch } from "../sandbox";
import { cancelled, denied, toolError } from "./results";
import { tail } from "./text";
import { errorMessage } from "../util";

type Args = ArgsOf<typeof executeCommand>;

export const executeCommandTool = implement(executeCommand, (ports) => (args, context) => runCommand(ports, args, context));

async function runCommand(ports: ToolPorts, args: Args, context: CallContext): Promise<ToolResult> {
  // Before anything is asked: an approval of text that runs differently from how it reads is no approval.
  const forbidden = forbiddenCommandCharacter(args.command);
  if (forbidden) return toolError(forbiddenCharacterMessage(forbidden), { character: forbidden.codePoint, position: forbidden.position });
  const history = historyExpansion(args.command);
  if (history) return toolError(historyExpansionMessage(history), { history_expansion: history.form, position: history.position });
  const cwd = await resolveToolPath(ports, context, args.cwd ?? ".", "Run a command in");
  if (!cwd.ok) return cwd.result;
  const stat = await ports.files.stat(cwd.path);
  if (stat?.type !== "directory") {
    return toolError(`cwd ${cwd.path} ${stat ? "is not a folder" : "does not exist"}: give an existing folder, or leave cwd out.`);
  }

  // Decided now, on the disk as it is now: what the folder and the arguments lead to.
  const plan = await planCommandFor(ports, { command: args.command, cwd: cwd.path, outsideSandbox: args.outside_sandbox === true });
  const launch = async () =>
    ports.sandbox!.launch({ cwd: cwd.path, folders: await realWorkspaceFolders(ports.files), agentCwd: await agentFolder(ports, context.agentId) });
  let sandbox: SandboxLaunch | undefined;
  let ask = plan.ask;
  if (ask === undefined && plan.sandboxed) {
    try {
      sandbox = await launch();
    } catch (err) {
      return toolError(`Could not start the command: ${errorMessage(err)}`);
    }
    // What the sandbox cannot hold read-only (a protected name that is a link…): the user decides.
    if (sandbox.concerns.length > 0) {
      ask = `the sandbox cannot protect everything here: ${sandbox.concerns.join("; ")}`;
      sandbox.release();
      sandbox = undefined;
    }
  }
  if (ask !== undefined) {
    const { id, promise } = ports.approvals.enqueue("command", args.command, { agentId: context.agentId, callId: context.callId, reason: ask });
    context.linkApproval(id);
    const decision = await promise;
    context.linkApproval(undefined);
    if (decision === "cancelled") return cancelled();
    if (decision === "deny") return denied(`The user denied running \`${args.command}\`. Do not retry it; ask the user, or do without it.`);
  }
  if (context.signal.aborted) {
    sandbox?.release();
    return cancelled();
  }

  let handle;
  try {
    // Launched after the approval when it asked: the disk may have changed while the user read it.
    if (plan.sandboxed) sandbox ??= await launch();
    handle = await ports.commands.start({
      command: args.command,
      cwd: cwd.path,
      agentId: context.agentId,
      ...(plan.argv ? { argv: plan.argv } : {}),
      ...(sandbox ? { sandbox } : {}),
    });
  } catch (err) {
    sandbox?.release();
    return toolError(`Could not start the command: ${errorMessage(err)}`);
  }
  context.linkTerminal(handle.id);
  const timeoutSeconds = args.timeout_seconds ?? DEFAULT_COMMAND_TIMEOUT_SECONDS;
  try {
    const end = await waitForEnd(handle.ended, timeoutSeconds * 1000, context.signal);
    if (end === "aborted") return cancelled();
    const partial = ports.commands.partialOutput(handle.id);
    const output = tail(partial.output, MAX_OUTPUT_CHARS);
    const common = {
      output: output.text,
      ...(output.truncated ? { output_truncated: true } : {}),
      terminal: handle.where,
      ...(plan.sandboxed ? { sandboxed: true } : {}),
    };
    if (end === "timedOut") {
      ports.commands.interrupt(handle.id);
      return toolError(
        `The command was still running after ${timeoutSeconds} s, so it was interrupted (Ctrl+C). The output so far is included; give a larger ` +
          `timeout_seconds if it needs longer.`,
        {
          status: "timed_out",
          timed_out: true,
          exit_code: null,
          output_captured: partial.captured,
          ...common,
        },
      );
    }
    // What it left that runs later (a repository of its making): the user decides before the agent goes on.
    const left = sandbox && ask === undefined ? await reviewLeftBehind(ports, context, await sandbox.leftBehind()) : [];
    const found =
      left.length > 0
        ? { left_behind: left.map((l) => `${l.said} (${l.removed ? "removed by the user" : l.opened ? "opened by the user" : "kept by the user"})`) }
        : {};
    return resultFor(end, partial.captured, { ...common, ...found });
  } finally {
    ports.commands.release(handle.id);
  }
}

function resultFor(end: CommandEnd, captured: boolean, common: Record<string, unknown>): ToolResult {
  switch (end.kind) {
    case "terminalClosed":
      return toolError(`The terminal ${String(common.terminal)} was closed before the command finished; its output so far is included.`, {
        status: "terminal_closed",
        exit_code: null,
        output_captured: captured,
        ...common,
      });
    case "notCaptured":
      return toolError(
        `The command was sent to the terminal "${String(common.terminal)}", but that terminal has no shell integration, so its output and exit code ` +
          `cannot be read (output not captured). ` +
          "Ask the user what it printed, or write the output to a file (command > out.txt 2>&1) and read that file.",
        { status: "output_not_captured", exit_code: null, output_captured: false, terminal: common.terminal },
      );
    case "exited": {
      const failed = end.exitCode !== undefined && end.exitCode !== 0;
      const body = { status: failed ? "failed" : "completed", exit_code: end.exitCode ?? null, output_captured: captured, ...common };
      const limit = common.sandboxed ? (limitMessage(String(common.output)) ?? "") : "";
      if (failed) return toolError(`The command exited with code ${end.exitCode}.${limit}${common.sandboxed ? SANDBOX_NOTE : ""}`, body);
      return jsonResult(body);
    }
  }
}

const SANDBOX_NOTE =
  " It ran in Arcadia's sandbox (no network, no unix sockets; outside the workspace only system folders, read-only; .git, .claude, .vscode read-only):" +
  " if that is why it failed, call again with outside_sandbox: true and the user is asked.";

/** The agent's own folder, a real path, when the host knows it (a worktree agent writes only there). */
async function agentFolder(ports: ToolPorts, agentId: string | undefined): Promise<string | undefined> {
  const cwd = agentId === undefined ? undefined : ports.agentCwd?.(agentId);
  return cwd === undefined ? undefined : ports.files.realpath(cwd).catch(() => cwd);
}

function waitForEnd(ended: Promise<CommandEnd>, timeoutMs: number, signal: AbortSignal): Promise<CommandEnd | "timedOut" | "aborted"> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish("timedOut"), timeoutMs);
    timer.unref?.();
    const onAbort = () => finish("aborted");
    function finish(value: CommandEnd | "timedOut" | "aborted") {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(value);
    }
    if (signal.aborted) return finish("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
    ended.then(finish, () => finish({ kind: "terminalClosed" }));
  });
}
