/**
 * After an unasked sandboxed command: the repositories it made (core/sandbox leftBehind.ts) go to
 * the user, one prompt each on the agent's card, in plain words, answered Remove or Keep (Keep,
 * which loses nothing, is the card's default). Remove deletes the `.git` (or the file, or a folder
 * the look could not read); Keep leaves it. A workspace folder left unreadable is never deleted:
 * its Open gives the user's read permission back. The agent is told what was found and what the
 * user chose. Nothing of Arcadia's runs git there meanwhile: the call waits for the answers.
 */
import { chmod, lstat, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { ApprovalWording, CallContext } from "../mcp";
import type { LeftBehind } from "../sandbox";
import type { ToolPorts } from "./ports";

export interface LeftBehindOutcome {
  said: string;
  removed: boolean;
  /** A workspace folder left unreadable whose permission the user gave back (Open). */
  opened?: true;
}

/** Remove answers allow, Keep answers deny (and is what a cancelled call amounts to: nothing is deleted unasked). */
export const LEFT_BEHIND_WORDING: ApprovalWording = { title: "Left behind by its command:", allow: "Remove", deny: "Keep", harmless: "deny" };
/** A workspace folder the command made unreadable: Open restores the user's permission on it, Keep leaves it. */
export const UNREADABLE_ROOT_WORDING: ApprovalWording = { title: "Left behind by its command:", allow: "Open", deny: "Keep", harmless: "deny" };

export async function reviewLeftBehind(ports: ToolPorts, context: CallContext, found: readonly LeftBehind[]): Promise<LeftBehindOutcome[]> {
  const out: LeftBehindOutcome[] = [];
  for (const item of found) {
    const choice = item.root
      ? "Open gives you read permission on it again (u+rwx; nothing is deleted), then look inside before running git there; Keep leaves it as it is"
      : "Remove deletes it; Keep leaves it as it is";
    const { id, promise } = ports.approvals.enqueue("path", item.path, {
      agentId: context.agentId,
      callId: context.callId,
      reason: `the agent's command ${item.said}. ${choice}`,
      wording: item.root ? UNREADABLE_ROOT_WORDING : LEFT_BEHIND_WORDING,
    });
    context.linkApproval(id);
    const decision = await promise;
    context.linkApproval(undefined);
    if (decision === "allow" && item.root) {
      const opened = await open(item.path);
      out.push({ said: item.said, removed: false, ...(opened ? { opened: true as const } : {}) });
      continue;
    }
    out.push({ said: item.said, removed: decision === "allow" && (await removeWhole(item.path)) });
  }
  return out;
}

/** Deletes `path` and all below it; a folder the user may not list or empty (chmod 000 by the command) is opened first. */
export async function removeWhole(path: string): Promise<boolean> {
  const gone = () =>
    rm(path, { recursive: true, force: true }).then(
      () => true,
      () => false,
    );
  if (await gone()) return true;
  await openAll(path);
  return gone();
}

/** u+rwx on one folder (links not followed); whether that was done. */
async function open(path: string): Promise<boolean> {
  const stats = await lstat(path).catch(() => undefined);
  if (!stats?.isDirectory()) return false;
  return chmod(path, (stats.mode & 0o7777) | 0o700).then(
    () => true,
    () => false,
  );
}

/** u+rwx on every folder below `path`, top down (links not followed); what cannot be changed is left. */
async function openAll(path: string): Promise<void> {
  if (!(await open(path))) return;
  for (const name of await readdir(path).catch(() => [])) await openAll(join(path, name));
}
