/**
 * The one way a tool writes: show the change as a diff, write only after Accept. The diff review
 * is the approval. The pending diff is linked to the call, so Cancel rejects it and Complete
 * accepts it (the handler then writes for real and answers with the real result).
 */
import type { CallContext } from "../mcp/toolCallTracker";
import type { ToolResult } from "../mcp/toolResult";
import type { ToolPorts } from "./ports";
import { cancelled, denied, errorText, ok, toolError } from "./results";
import { shownPath } from "./shownPath";
import { decodeText, encodeText } from "./text";

export async function reviewAndWrite(
  ports: ToolPorts,
  context: CallContext,
  change: { path: string; original: string | undefined; proposed: string; title: string; extra?: Record<string, unknown> },
): Promise<ToolResult> {
  const shown = shownPath(ports, context.agentId, change.path);
  if (change.original === change.proposed) return ok({ path: shown, changed: false, message: "The file already has this content; nothing to write." });
  if (context.signal.aborted) return cancelled();

  const { id, decision } = ports.diffs.propose({ path: change.path, original: change.original, proposed: change.proposed, title: change.title, agentId: context.agentId, callId: context.callId });
  context.linkDiff(id);
  const answer = await decision;
  context.linkDiff(undefined);
  // The call ended meanwhile (the client cancelled it): an Accept now must not write for nobody.
  if (context.signal.aborted) return cancelled();
  if (answer === "reject") {
    if (context.signal.aborted) return cancelled();
    return denied(`The user rejected the change to ${shown}; nothing was written. Do not retry the same change: ask the user what they want instead.`, { path: shown });
  }

  // The file may have moved on while the diff was on screen: never overwrite what was not reviewed.
  const now = await currentText(ports, change.path);
  if (now !== change.original) {
    return toolError(`${shown} changed while the diff was under review, so nothing was written. Read it again and propose the change anew.`, { path: shown });
  }
  try {
    const bytes = encodeText(change.proposed);
    await ports.files.writeFile(change.path, bytes);
    return ok({ path: shown, changed: true, created: change.original === undefined, bytes: bytes.length, ...change.extra });
  } catch (err) {
    return toolError(`Writing ${shown} failed: ${errorText(err)}`, { path: shown });
  }
}

/** The file's text, or undefined when it does not exist. */
export async function currentText(ports: ToolPorts, path: string): Promise<string | undefined> {
  const stat = await ports.files.stat(path);
  if (!stat) return undefined;
  return decodeText(await ports.files.readFile(path));
}
