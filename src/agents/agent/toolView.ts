/**
 * A tool row as the panel receives it, from the core's derived ToolCall: an explicit mapping, so
 * the protocol and the core's types can change apart (a field added to ToolCall reaches the
 * webview only when it is added here), and nothing else of the object rides along to the panel.
 */
import type { ShownRow } from "../../core/agent";
import { sandboxMark } from "../../core/agentSandbox";
import type { ToolView } from "../../shared/protocol";

/** `sandboxed`: its agent runs its shell commands in Claude Code's sandbox (the row's mark). */
export function toolView(call: ShownRow, sandboxed = false): ToolView {
  const view: ToolView = { id: call.id, name: call.name, label: call.label, parent: call.parent, outcome: call.outcome, background: call.background };
  if (call.startedAt !== undefined) view.startedAt = call.startedAt;
  if (call.endedAt !== undefined) view.endedAt = call.endedAt;
  if (call.waitedMs !== undefined) view.waitedMs = call.waitedMs;
  const mark = sandboxMark(sandboxed, call);
  if (mark) view.sandbox = mark;
  return view;
}
