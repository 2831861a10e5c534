/**
 * Where a tool's path argument really points, and whether the agent may use it without asking.
 *
 * Relative paths resolve against the agent's folder (else the first workspace folder). Symlinks
 * are resolved (for a file that does not exist yet: its nearest existing parent; a dangling link
 * leads to its missing target), so a link inside the workspace that points outside it counts as
 * outside. Outside every workspace folder → the
 * user must Allow it (a `path` approval on the call's card row).
 */
import { isAbsolute, resolve } from "node:path";
import type { CallContext, ToolResult } from "../mcp";
import type { ToolPorts, WorkspaceFiles } from "./ports";
import { cancelled, denied, toolError } from "./results";
import { isInside, realpathAllowingMissing as followingMissing } from "../util";

export { isInside };

/** The folder relative paths start from: the agent's, else the first workspace folder. */
export function baseFolder(ports: ToolPorts, agentId: string | undefined): string | undefined {
  return (agentId !== undefined ? ports.agentCwd?.(agentId) : undefined) ?? ports.files.folders()[0];
}

/** See util/realpathAllowingMissing.ts; through the files port's realpath. */
export function realpathAllowingMissing(files: Pick<WorkspaceFiles, "realpath">, path: string): Promise<string> {
  return followingMissing((p) => files.realpath(p), path);
}

/** The workspace folders as real paths (one that cannot be resolved as it is named). */
export async function realWorkspaceFolders(files: Pick<WorkspaceFiles, "folders" | "realpath">): Promise<string[]> {
  const out: string[] = [];
  for (const folder of files.folders()) out.push(await files.realpath(folder).catch(() => folder));
  return out;
}

export async function insideWorkspace(files: WorkspaceFiles, real: string): Promise<boolean> {
  for (const folder of files.folders()) {
    const realFolder = await realpathAllowingMissing(files, folder);
    if (isInside(real, realFolder)) return true;
  }
  return false;
}

export type Resolved = { ok: true; path: string } | { ok: false; result: ToolResult };

/**
 * The real path for `input`, after the user's Allow when it is outside the workspace.
 * `purpose` says what the tool wants to do there, for the approval's one line.
 */
export async function resolveToolPath(ports: ToolPorts, context: CallContext, input: string, purpose: string): Promise<Resolved> {
  const base = baseFolder(ports, context.agentId);
  if (!isAbsolute(input) && base === undefined) {
    return { ok: false, result: toolError(`"${input}" is relative, but no workspace folder is open to resolve it against: give an absolute path.`) };
  }
  const absolute = isAbsolute(input) ? resolve(input) : resolve(base as string, input);
  let real: string;
  try {
    real = await realpathAllowingMissing(ports.files, absolute);
  } catch (err) {
    return { ok: false, result: toolError(`Cannot resolve "${input}": ${(err as Error).message}`) };
  }
  if (await insideWorkspace(ports.files, real)) return { ok: true, path: real };

  const { id, promise } = ports.approvals.enqueue("path", `${purpose}: ${real}`, { agentId: context.agentId, callId: context.callId });
  context.linkApproval(id);
  const decision = await promise;
  context.linkApproval(undefined);
  if (decision === "allow") return { ok: true, path: real };
  if (decision === "cancelled") return { ok: false, result: cancelled() };
  const folders = ports.files.folders();
  return {
    ok: false,
    result: denied(
      `The user denied access to ${real}, which is outside the workspace folders${folders.length ? ` (${folders.join(", ")})` : ""}` +
        `${real !== absolute ? ` (it is where ${absolute} leads through a symlink)` : ""}. Work inside the workspace instead.`,
      { path: real },
    ),
  };
}
