/**
 * The smallest records of each kind a test transcript needs, in the shapes CLI 2.1.330 writes
 * (see test/fixtures/recorded/): only the fields the engine reads, plus `version` and a timestamp.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const VERSION = "2.1.330";
let clock = Date.parse("2026-11-22T05:37:03.000Z");
/** Each record one second after the previous one. */
const at = () => new Date((clock += 1000)).toISOString();

const base = () => ({ isSidechain: false, timestamp: at(), version: VERSION });

export const prompt = (text: string) => ({ ...base(), type: "user", message: { role: "user", content: text } });

export const toolUse = (id: string, name = "Bash", input: unknown = { command: "ls" }) => ({
  ...base(),
  type: "assistant",
  message: { id: `msg_${id}`, role: "assistant", content: [{ type: "tool_use", id, name, input }], stop_reason: "tool_use" },
});

export const toolResult = (id: string, output = "ok") => ({
  ...base(),
  type: "user",
  message: { role: "user", content: [{ tool_use_id: id, type: "tool_result", content: output }] },
});

export const agentUse = (id: string, prompt: string) => toolUse(id, "Agent", { description: "Helper", prompt, subagent_type: "general-purpose" });

/** The result the CLI writes at once for an `Agent` call that runs in the background. */
export const asyncLaunched = (id: string) => ({
  ...toolResult(id, "Async agent launched successfully."),
  toolUseResult: { isAsync: true, status: "async_launched", agentId: `a${id}`, description: "Helper", prompt: "…" },
});

export const taskNotification = (id: string) =>
  prompt(
    `<task-notification>\n<task-id>a${id}</task-id>\n<tool-use-id>${id}</tool-use-id>\n<status>completed</status>\n<summary>Agent "Helper" completed</summary>\n</task-notification>`,
  );

export const reply = (text: string) => ({
  ...base(),
  type: "assistant",
  message: { id: `msg_${clock}`, role: "assistant", content: [{ type: "text", text }], stop_reason: "end_turn" },
});

export const turnEnd = (pendingBackgroundAgentCount?: number) => ({
  ...base(),
  type: "system",
  subtype: "turn_duration",
  durationMs: 1000,
  ...(pendingBackgroundAgentCount ? { pendingBackgroundAgentCount } : {}),
});

export const jsonl = (records: readonly unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join("");

/** A sub-agent's own transcript under `<session>/subagents/`, linked to its Agent call by its meta file. */
export function writeSubagent(sessionFile: string, agentId: string, parentToolId: string, records: readonly unknown[]): string {
  const dir = join(
    dirname(sessionFile),
    sessionFile
      .split("/")
      .pop()!
      .replace(/\.jsonl$/, ""),
    "subagents",
  );
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `agent-${agentId}.jsonl`);
  writeFileSync(file, jsonl(records.map((r) => ({ ...(r as object), isSidechain: true, agentId }))));
  writeFileSync(join(dir, `agent-${agentId}.meta.json`), JSON.stringify({ agentType: "general-purpose", toolUseId: parentToolId }));
  return file;
}
