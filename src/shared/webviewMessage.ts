/**
 * What the webview may send, as a zod schema: every message from a page is untrusted input (a
 * page runs a transcript's text), parsed here and ignored with a log line when it does not fit.
 * Only the extension imports this file's values; the webview imports its types (through
 * protocol.ts), so zod never reaches a page's bundle.
 */
// zod/mini: the same validation, tree-shaken to ~20 KB instead of zod's ~500 KB, which the
// extension would otherwise load at every activation.
import * as z from "zod/mini";

/**
 * The longest name an agent can be given (UTF-16 units, after trimming). The one definition: the
 * schema below refuses longer renames, the manager cuts longer names, and the webview, which may
 * import only types from here, types its copy as `typeof AGENT_NAME_MAX_LENGTH` (the literal
 * type 80), so a change here fails the webview's typecheck until its copy follows.
 */
export const AGENT_NAME_MAX_LENGTH = 80;

/** Built on the first message, not when the extension loads (activation time). */
function buildWebviewMessageSchema() {
  const id = z.string().check(z.minLength(1), z.maxLength(200));
  return z.discriminatedUnion("type", [
    z.strictObject({ type: z.literal("webviewReady") }),
    z.strictObject({ type: z.literal("openClaude") }),
    /** Open Claude Code in a new git worktree (asks for its name). */
    z.strictObject({ type: z.literal("openClaudeInWorktree") }),
    /** A worktree agent's card: its changes in a diff editor, merge into its base, remove the worktree. */
    z.strictObject({ type: z.literal("worktreeAction"), id, action: z.enum(["review", "merge", "remove"]) }),
    /** A card's review comments: send its drafts to the agent (now if idle, else once it is). */
    z.strictObject({ type: z.literal("reviewAction"), id, action: z.enum(["send"]) }),
    /** The toolbar's Run on Several Agents…: one task, several worktree agents (asks for the task, the count, the models). */
    z.strictObject({ type: z.literal("runOnSeveralAgents") }),
    /** A card's race tag: open the race's compare tab. */
    z.strictObject({ type: z.literal("showRace"), raceId: id }),
    /** A compare tab is ready for its race. */
    z.strictObject({ type: z.literal("compareReady"), raceId: id }),
    /** A compare column's action on its member: review its changes, ask a follow-up, pick it, show its terminal or its check's output. */
    z.strictObject({ type: z.literal("compareAction"), raceId: id, member: id, action: z.enum(["review", "followUp", "pick", "focus", "checkOutput"]) }),
    /** Two members' work against each other in the multi-file diff editor. */
    z.strictObject({ type: z.literal("compareDiff"), raceId: id, left: id, right: id }),
    /** Run the check command (arcadia.compare.check) in every member's worktree. */
    z.strictObject({ type: z.literal("runChecks"), raceId: id }),
    /** The toolbar's Sessions button: show the Sessions view. */
    z.strictObject({ type: z.literal("showSessions") }),
    /** The Sessions view (or a reader) is ready for its list (its session). */
    z.strictObject({ type: z.literal("sessionsReady") }),
    /** A session of the Sessions view: read it, resume it in a new terminal, or open its raw JSONL. */
    z.strictObject({ type: z.literal("sessionAction"), sessionId: id, action: z.enum(["open", "resume", "raw"]) }),
    z.strictObject({ type: z.literal("focusAgent"), id }),
    z.strictObject({ type: z.literal("closeAgent"), id }),
    z.strictObject({ type: z.literal("renameAgent"), id, name: z.string().check(z.trim(), z.minLength(1), z.maxLength(AGENT_NAME_MAX_LENGTH)) }),
    z.strictObject({ type: z.literal("cancelCall"), callId: id }),
    z.strictObject({ type: z.literal("completeCall"), callId: id }),
    /** Stop a command a call left running after Complete (Ctrl+C to it). */
    z.strictObject({ type: z.literal("stopCommand"), id }),
    z.strictObject({ type: z.literal("answerPrompt"), id, decision: z.enum(["allow", "deny", "alwaysAllow"]) }),
    /** Show what a prompt is about: the diff of a write, the terminal of a permission prompt. */
    z.strictObject({ type: z.literal("revealPrompt"), id }),
    /** `claude` exited: start it again in the same terminal, resuming the session. */
    z.strictObject({ type: z.literal("restartAgent"), id }),
    z.strictObject({ type: z.literal("noticeAction"), command: z.enum(["openSettings", "openInstallDocs", "openSandboxSettings", "dismissNotice"]) }),
    /** The cards on screen now (at least half visible): notifications are for the others. */
    z.strictObject({ type: z.literal("cardsVisible"), ids: z.array(id).check(z.maxLength(1000)) }),
  ]);
}

let webviewMessageSchema: ReturnType<typeof buildWebviewMessageSchema> | undefined;

export type WebviewMessage = z.infer<ReturnType<typeof buildWebviewMessageSchema>>;

export type ParsedWebviewMessage = { ok: true; message: WebviewMessage } | { ok: false; error: string };

export function parseWebviewMessage(raw: unknown): ParsedWebviewMessage {
  webviewMessageSchema ??= buildWebviewMessageSchema();
  const result = webviewMessageSchema.safeParse(raw);
  if (result.success) return { ok: true, message: result.data };
  return { ok: false, error: result.error.issues.map((i) => `${i.path.join(".") || "message"}: ${i.message}`).join("; ") };
}
