/**
 * The collision guard on Claude Code's hooks: PreToolUse of an edit asks the guard; with
 * `arcadia.collisions: "ask"` a collision answers `permissionDecision: "ask"` with the reason, so
 * the CLI shows its own permission prompt (and the card its Allow / Deny, as for every prompt);
 * `warn` lets the edit through (the cards still say so); `off` tracks nothing. PostToolUse ends
 * an edit as changed; PostToolUseFailure / PermissionDenied as not. Any tool's end may have
 * committed something (a `git commit` in Bash): shared files are then checked again.
 */
import { relative, sep } from "node:path";
import { isSideQuery } from "../hooks";
import { type HookEndpoint, type HookRequest, otherHookEvent } from "../server";
import { errorMessage } from "../util";
import type { Collision, CollisionGuard } from "./collisionGuard";
import { editTarget, isEditTool } from "../toolDeclarations";

export type CollisionMode = "ask" | "warn" | "off";

export interface CollisionHookOptions {
  guard: CollisionGuard;
  mode: () => CollisionMode;
  agentName: (agentId: string) => string;
  log: (message: string) => void;
}

/** `path` as seen from `cwd` when inside it, else whole. */
export function shownFrom(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel && rel !== ".." && !rel.startsWith(`..${sep}`) ? rel : path;
}

/** "Agent #1 also edits src/App.tsx (changed it, not committed yet)": the path as seen from `cwd` when inside it. */
export function collisionReason(collision: Collision, cwd: string, agentName: (agentId: string) => string): string {
  const shown = shownFrom(cwd, collision.path);
  const how = (now: boolean) => (now ? "editing it now" : "changed it, not committed yet");
  const [only, ...more] = collision.others;
  if (only && more.length === 0) return `${agentName(only.agentId)} also edits ${shown} (${how(only.now)})`;
  const names = collision.others.map((o) => agentName(o.agentId));
  return `${names.join(" and ")} also edit ${shown} (${collision.others.map((o) => `${agentName(o.agentId)}: ${how(o.now)}`).join("; ")})`;
}

/** The PreToolUse answer that makes the CLI ask the user, showing `reason` in its prompt. */
export function askAnswer(reason: string): object {
  return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: `Arcadia: ${reason}` } };
}

/** `endpoint` with the guard in front: its answer stands unless a collision must be asked about. */
export function withCollisionGuard(endpoint: HookEndpoint, options: CollisionHookOptions): HookEndpoint {
  let recheck: Promise<void> | undefined;
  const recheckSoon = () => {
    recheck ??= options.guard
      .recheck()
      .catch((err) => options.log(`collision recheck failed: ${errorMessage(err)}`))
      .finally(() => (recheck = undefined));
  };
  return async (request: HookRequest) => {
    const base = endpoint(request);
    const mode = options.mode();
    if (mode === "off") return base;
    try {
      const ask = await observe(request, mode, options, recheckSoon);
      if (ask) return ask;
    } catch (err) {
      options.log(`collision guard failed (the edit goes on): ${errorMessage(err)}`);
    }
    return base;
  };
}

async function observe(request: HookRequest, mode: CollisionMode, options: CollisionHookOptions, recheckSoon: () => void): Promise<object | undefined> {
  const { agentId, input } = request;
  // A side query's edit never runs (the CLI refuses its tools): it edits nothing, collides with nothing.
  if (isSideQuery(input)) return undefined;
  const toolName = typeof input.tool_name === "string" ? input.tool_name : "";
  const toolUseId = typeof input.tool_use_id === "string" ? input.tool_use_id : undefined;
  const cwd = typeof input.cwd === "string" ? input.cwd : "/";
  switch (input.hook_event_name) {
    case "PreToolUse": {
      const path = toolUseId ? editTarget(toolName, input.tool_input, cwd) : undefined;
      if (!path || !toolUseId) return undefined;
      const collision = await options.guard.beforeEdit(agentId, toolUseId, path);
      if (!collision) return undefined;
      const reason = collisionReason(collision, cwd, options.agentName);
      options.log(`collision: ${options.agentName(agentId)} is about to edit a file others edit: ${reason} (${mode})`);
      if (mode !== "ask") return undefined;
      // CLI 2.1.330 does not show the reason in its edit prompt: the card's prompt does.
      options.guard.noteAsked(agentId, toolUseId, reason);
      return askAnswer(reason);
    }
    case "PostToolUse":
      if (toolUseId && isEditTool(toolName)) options.guard.afterEdit(agentId, toolUseId, true);
      recheckSoon();
      return undefined;
    case "PostToolUseFailure":
    case "PermissionDenied":
      if (toolUseId) options.guard.afterEdit(agentId, toolUseId, false);
      return undefined;
    case "PermissionRequest":
    case "PreCompact":
    case "PostCompact":
      return undefined;
    default:
      return otherHookEvent(input, undefined);
  }
}
