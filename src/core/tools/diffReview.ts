/**
 * The one way a tool writes: show the change as a diff, write only after Accept. The diff review
 * is the approval. The pending diff is linked to the call, so Cancel rejects it and Complete
 * accepts it (core/toolDeclarations/diffComplete.ts: the handler then writes for real and answers with the
 * real result).
 */
import type { CallContext, ToolResult } from "../mcp";
import { isPathChanged, type WriteTarget, writeTargetOf } from "./checkedOpen";
import type { ToolPorts } from "./ports";
import { cancelled, denied, ok, toolError } from "./results";
import { shownPath } from "./shownPath";
import { decodeText, encodeText } from "./text";
import { errorMessage } from "../util";

export async function reviewAndWrite(
  ports: ToolPorts,
  context: CallContext,
  change: { path: string; original: string | undefined; proposed: string; title: string; extra?: Record<string, unknown> },
): Promise<ToolResult> {
  const shown = shownPath(ports, context.agentId, change.path);
  if (change.original === change.proposed) return ok({ path: shown, changed: false, message: "The file already has this content; nothing to write." });
  if (context.signal.aborted) return cancelled();
  // Where the write must land, fixed now: the user reviews this file in this folder, nothing else.
  let target: WriteTarget;
  try {
    target = await writeTargetOf(change.path);
  } catch (err) {
    return toolError(`${shown} cannot be written: ${errorMessage(err)}. Check the path with list_files and propose the change again.`, { path: shown });
  }

  const { id, decision } = ports.diffs.propose({
    path: change.path,
    original: change.original,
    proposed: change.proposed,
    title: change.title,
    agentId: context.agentId,
    callId: context.callId,
  });
  context.linkDiff(id);
  const answer = await decision;
  context.linkDiff(undefined);
  // The call ended meanwhile (the client cancelled it): an Accept now must not write for nobody.
  if (context.signal.aborted) return cancelled();
  if (answer === "reject") {
    if (context.signal.aborted) return cancelled();
    return denied(`The user rejected the change to ${shown}; nothing was written. Do not retry the same change: ask the user what they want instead.`, {
      path: shown,
    });
  }

  // The file may have moved on while the diff was on screen: never overwrite what was not reviewed.
  const moved = (err: unknown) =>
    toolError(
      `${shown} was not written: ${errorMessage(err)}. The file reviewed is no longer where it was; check the path (list_files) and propose the change again.`,
      { path: shown, path_changed: true },
    );
  let now: string | undefined;
  try {
    now = await currentText(ports, change.path);
  } catch (err) {
    if (isPathChanged(err)) return moved(err);
    return toolError(`Reading ${shown} again before writing failed: ${errorMessage(err)}`, { path: shown });
  }
  if (now !== change.original) {
    return toolError(`${shown} changed while the diff was under review, so nothing was written. Read it again and propose the change anew.`, { path: shown });
  }
  try {
    const bytes = encodeText(change.proposed);
    await ports.files.writeFile(target, bytes);
    return ok({ path: shown, changed: true, created: change.original === undefined, bytes: bytes.length, ...change.extra });
  } catch (err) {
    if (isPathChanged(err)) return moved(err);
    return toolError(`Writing ${shown} failed: ${errorMessage(err)}`, { path: shown });
  }
}

/**
 * The file's bytes before an edit (undefined when it does not exist), or the tool's answer when it
 * cannot be read — e.g. a link swapped in since the path was checked (checkedOpen.ts).
 */
export async function readBeforeEdit(ports: ToolPorts, path: string): Promise<{ bytes: Uint8Array | undefined } | { result: ToolResult }> {
  try {
    const stat = await ports.files.stat(path);
    return { bytes: stat ? await ports.files.readFile(path) : undefined };
  } catch (err) {
    return {
      result: toolError(
        `${path} was not read: ${errorMessage(err)}. Check the path with list_files and try again.`,
        isPathChanged(err) ? { path_changed: true } : {},
      ),
    };
  }
}

/** The file's text, or undefined when it does not exist. */
export async function currentText(ports: ToolPorts, path: string): Promise<string | undefined> {
  const stat = await ports.files.stat(path);
  if (!stat) return undefined;
  return decodeText(await ports.files.readFile(path));
}
