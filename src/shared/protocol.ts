/**
 * The one message protocol between the extension and the panel's webview. Both sides import it.
 * Messages from the webview are untrusted input: the extension validates them with
 * `parseWebviewMessage` (zod) and ignores, with a log line, whatever does not fit.
 * The webview imports only types from here, so zod never reaches its bundle.
 */
import { z } from "zod";

/** A tool call as a card shows it. `parent`: the Subtask (Agent/Task call) it runs under. */
export interface ToolView {
  id: string;
  name: string;
  label: string;
  parent: string | null;
  outcome: "running" | "done" | "error" | "interrupted" | "orphaned";
  /** A background sub-agent's call: runs on after its turn ended. */
  background: boolean;
  /** ms since the epoch, from the transcript; the webview ticks elapsed time itself. */
  startedAt?: number;
  endedAt?: number;
}

export type AgentStatusView = "starting" | "active" | "waiting";
export type TurnOutcomeView = "none" | "completed" | "interrupted" | "error";

export interface AgentView {
  id: string;
  /** "Agent #n" until renamed. */
  name: string;
  /** Launch order, 1-based; cards are shown in this order. */
  index: number;
  status: AgentStatusView;
  /** How the last finished turn ended (shown while waiting). */
  lastTurn: TurnOutcomeView;
  /** The current turn's tools, finished and running, plus background sub-agents still running. */
  tools: ToolView[];
  /** Its terminal is the active terminal. */
  focused: boolean;
  /** The API error being retried right now, if any. */
  retry: { message: string; attempt?: number; maxRetries?: number } | null;
}

/** Something the whole panel must say, e.g. that `claude` cannot be found. */
export interface NoticeView {
  kind: "claudeMissing" | "error";
  message: string;
  /** Things the user can do about it, rendered as buttons. */
  actions: { label: string; command: "openSettings" | "openInstallDocs" | "dismissNotice" }[];
}

export type ExtensionMessage =
  /** Everything, in answer to `webviewReady` (sent every time the view is shown). */
  | { type: "snapshot"; agents: AgentView[]; notice: NoticeView | null }
  | { type: "agentUpdated"; agent: AgentView }
  | { type: "agentRemoved"; id: string }
  | { type: "notice"; notice: NoticeView | null };

const id = z.string().min(1).max(200);

export const webviewMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("webviewReady") }).strict(),
  z.object({ type: z.literal("openClaude") }).strict(),
  z.object({ type: z.literal("openSessionsFolder") }).strict(),
  z.object({ type: z.literal("focusAgent"), id }).strict(),
  z.object({ type: z.literal("closeAgent"), id }).strict(),
  z.object({ type: z.literal("renameAgent"), id, name: z.string().trim().min(1).max(80) }).strict(),
  z.object({ type: z.literal("noticeAction"), command: z.enum(["openSettings", "openInstallDocs", "dismissNotice"]) }).strict(),
]);

export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

export type ParsedWebviewMessage = { ok: true; message: WebviewMessage } | { ok: false; error: string };

export function parseWebviewMessage(raw: unknown): ParsedWebviewMessage {
  const result = webviewMessageSchema.safeParse(raw);
  if (result.success) return { ok: true, message: result.data };
  return { ok: false, error: result.error.issues.map((i) => `${i.path.join(".") || "message"}: ${i.message}`).join("; ") };
}
