/**
 * Claude Code's permission prompts, answered from Arcadia. The CLI POSTs a PermissionRequest
 * hook while its terminal shows the same prompt; the request waits here as a pending request
 * until the person decides in the panel (`decide`), or the prompt is answered in the terminal,
 * or nobody can answer here — then it is answered "no decision" and the terminal prompt, which
 * stays usable all along, is the only one left. Whichever side answers first wins in the CLI.
 *
 * What tells us the terminal answered first (CLI 2.1.330): Escape ("No") aborts the hook's HTTP
 * request; "Yes" does not, and the next sign is the call's PostToolUse/PostToolUseFailure, which
 * comes only when the tool ends. So the integration also calls `answeredElsewhere(agentId)` when
 * the agent's status file leaves `waiting`.
 *
 * Never hangs the CLI: unavailable → no decision at once; a request waits at most
 * `decisionTimeoutMs` (shorter than the hook's own timeout), then gets no decision.
 */
import { randomUUID } from "node:crypto";
import type { HookEndpoint, HookInput, HookRequest } from "../server";
import { type Clock, DisposableObject, Emitter, errorMessage, systemClock, type TimerHandle } from "../util";
import { HOOK_EVENTS, otherHookEvent } from "../server";
import { allowReply, denyReply, NO_DECISION } from "./permissionReplies";
import { permissionSubject } from "./permissionSubject";
import { DEFAULT_MAX_REMEMBERED_PER_AGENT, matches, PreToolUseMemory } from "./preToolUseMemory";

export type PermissionAnswer = "allow" | "deny" | "alwaysAllow";

export interface PendingPermission {
  id: string;
  agentId: string;
  sessionId: string;
  /** The transcript's tool_use id, from the matching PreToolUse; absent if none matched. */
  toolUseId?: string;
  /** Set when a sub-agent's call asks (the hook input's `agent_id`). */
  subagentId?: string;
  toolName: string;
  toolInput: unknown;
  /** One line, e.g. "Bash: rm -rf build". */
  subject: string;
  /** The CLI offered rules to remember ("Always allow" applies them). */
  canAlwaysAllow: boolean;
  /** When the request arrived (the broker's clock, ms). */
  receivedAt: number;
}

export type PermissionRemoval =
  /** `decide` answered it. */
  | "decided"
  /** The terminal answered first (abort, PostToolUse…, or `answeredElsewhere`). */
  | "answeredElsewhere"
  /** Nobody decided within `decisionTimeoutMs`. */
  | "timedOut"
  /** `setAvailable(false)`: nobody can answer here now. */
  | "unavailable"
  /** `forgetAgent`. */
  | "agentGone"
  /** `dispose`. */
  | "closed";

export type PermissionChange =
  | { type: "added"; request: PendingPermission }
  /** The request learned its toolUseId late (its PreToolUse came after it). */
  | { type: "updated"; request: PendingPermission }
  | { type: "removed"; request: PendingPermission; reason: PermissionRemoval };

export interface PermissionBrokerOptions {
  clock?: Clock;
  /** Whether someone can see and answer requests here now; default true. */
  available?: boolean;
  /** Default: the PermissionRequest hook's timeout less 5 s, so we always answer first. */
  decisionTimeoutMs?: number;
  maxRememberedCallsPerAgent?: number;
  /** Pending requests per agent; past it a new one gets "no decision" at once (the terminal asks). */
  maxPendingPerAgent?: number;
  /** Deny stops the turn like "No" in the terminal (default), or lets the model carry on. */
  denyInterrupts?: boolean;
  /** Whether a card exists for this agent id; a request no card can show is "no decision" at once. */
  isKnownAgent?: (agentId: string) => boolean;
  log?: (message: string) => void;
}

const DENY_MESSAGE = "The user denied this tool call from the Arcadia panel.";

/** The CLI asks one prompt at a time per agent (sub-agents add a few): far fewer than this. */
export const DEFAULT_MAX_PENDING_PER_AGENT = 16;

interface Entry {
  view: PendingPermission;
  suggestions: unknown[];
  input: HookInput;
  respond(reply: object): void;
  timer: TimerHandle;
}

export class PermissionBroker extends DisposableObject {
  private readonly clock: Clock;
  private readonly memory: PreToolUseMemory;
  private readonly pendingById = new Map<string, Entry>();
  private readonly changed = this._register(new Emitter<PermissionChange>((err) => this.log(`Permission change listener failed: ${errorMessage(err)}`)));
  /** A request was added, learned its tool_use id, or went (with the reason). */
  readonly onDidChange = this.changed.event;
  private readonly decisionTimeoutMs: number;
  private readonly denyInterrupts: boolean;
  private readonly log: (message: string) => void;
  private readonly isKnownAgent: ((agentId: string) => boolean) | undefined;
  private readonly maxPendingPerAgent: number;
  /** Agents refused for being over the cap, until they are under it again: one log line per burst. */
  private readonly overCap = new Set<string>();
  private isAvailable: boolean;

  constructor(opts: PermissionBrokerOptions = {}) {
    super();
    // Disposed before the emitter (newest first): listeners hear each pending request go, "closed".
    this._register({ dispose: () => this.finishAll("closed") });
    this.clock = opts.clock ?? systemClock;
    this.memory = new PreToolUseMemory(opts.maxRememberedCallsPerAgent ?? DEFAULT_MAX_REMEMBERED_PER_AGENT);
    this.decisionTimeoutMs = opts.decisionTimeoutMs ?? HOOK_EVENTS.PermissionRequest.timeoutS * 1000 - 5000;
    this.denyInterrupts = opts.denyInterrupts ?? true;
    this.log = opts.log ?? (() => undefined);
    this.isAvailable = opts.available ?? true;
    this.isKnownAgent = opts.isKnownAgent;
    this.maxPendingPerAgent = opts.maxPendingPerAgent ?? DEFAULT_MAX_PENDING_PER_AGENT;
  }

  /** The `hooks` endpoint to give `startLoopbackServer`. */
  readonly handleHook: HookEndpoint = (request) => this.route(request);

  get available(): boolean {
    return this.isAvailable;
  }

  /** Off: every pending request is answered "no decision" now, and new ones at once. */
  setAvailable(available: boolean): void {
    this.isAvailable = available;
    if (!available) this.finishAll("unavailable");
  }

  /** Pending requests, oldest first; of one agent if given. */
  pending(agentId?: string): PendingPermission[] {
    return [...this.pendingById.values()].map((e) => ({ ...e.view })).filter((v) => agentId === undefined || v.agentId === agentId);
  }

  /**
   * Answers a pending request. False (and nothing happens) when it is no longer pending: decided
   * already, answered in the terminal, timed out. "alwaysAllow" also applies the rules the CLI
   * suggested (for this session, or where the suggestion says); without any it is a plain allow.
   */
  decide(id: string, answer: PermissionAnswer): boolean {
    const entry = this.pendingById.get(id);
    if (!entry) return false;
    const reply = answer === "deny" ? denyReply(DENY_MESSAGE, this.denyInterrupts) : allowReply(answer === "alwaysAllow" ? entry.suggestions : undefined);
    this.finish(entry, reply, "decided");
    return true;
  }

  /**
   * The agent's prompt was answered in the terminal (its status file left `waiting`): its pending
   * requests go, answered "no decision" (the CLI ignores that late answer). Only those of
   * `sessionId`, and only those received at or before `before` (broker clock), when given.
   * Returns how many went.
   */
  answeredElsewhere(agentId: string, opts: { sessionId?: string; before?: number } = {}): number {
    let count = 0;
    for (const entry of [...this.pendingById.values()]) {
      const v = entry.view;
      if (v.agentId !== agentId) continue;
      if (opts.sessionId !== undefined && v.sessionId !== opts.sessionId) continue;
      if (opts.before !== undefined && v.receivedAt > opts.before) continue;
      this.finish(entry, NO_DECISION, "answeredElsewhere");
      count++;
    }
    return count;
  }

  /** The agent went: its requests get "no decision" and its remembered calls are dropped. */
  forgetAgent(agentId: string): void {
    for (const entry of [...this.pendingById.values()]) if (entry.view.agentId === agentId) this.finish(entry, NO_DECISION, "agentGone");
    this.memory.forgetAgent(agentId);
    this.overCap.delete(agentId);
  }

  /** Every pending request answered "no decision": its prompt in the terminal is left to the user. */
  private finishAll(reason: "unavailable" | "closed"): void {
    for (const entry of [...this.pendingById.values()]) this.finish(entry, NO_DECISION, reason);
  }

  private route(request: HookRequest): object | Promise<object> {
    const { agentId, input } = request;
    switch (input.hook_event_name) {
      case "PreToolUse":
        this.onPreToolUse(agentId, input);
        return NO_DECISION;
      case "PostToolUse":
      case "PostToolUseFailure":
        this.onToolEnded(agentId, input);
        return NO_DECISION;
      case "PermissionRequest":
        return this.onPermissionRequest(agentId, input, request.signal);
      case "PermissionDenied":
      case "PreCompact":
      case "PostCompact":
        return NO_DECISION;
      default:
        return otherHookEvent(input, NO_DECISION);
    }
  }

  private onPreToolUse(agentId: string, input: HookInput): void {
    const toolUseId = str(input.tool_use_id);
    const toolName = str(input.tool_name);
    if (!toolUseId || !toolName) {
      this.log(`PreToolUse without tool_use_id or tool_name from agent ${agentId}: ignored`);
      return;
    }
    const call = this.memory.remember(agentId, {
      sessionId: input.session_id,
      promptId: str(input.prompt_id),
      toolName,
      toolInput: input.tool_input,
      toolUseId,
    });
    if (call.claimed) return;
    // A request that came before its PreToolUse (not seen from 2.1.330, which asks only after
    // PreToolUse hooks are done, but cheap to handle) gets its id now.
    for (const entry of this.pendingById.values()) {
      if (entry.view.agentId !== agentId || entry.view.toolUseId !== undefined) continue;
      if (!matches(call, keyOf(entry.input))) continue;
      call.claimed = true;
      entry.view.toolUseId = toolUseId;
      this.emit({ type: "updated", request: { ...entry.view } });
      return;
    }
  }

  private onToolEnded(agentId: string, input: HookInput): void {
    const toolUseId = str(input.tool_use_id);
    if (!toolUseId) return;
    this.memory.forget(agentId, toolUseId);
    // The call ran or failed: its prompt was answered, here or in the terminal.
    for (const entry of [...this.pendingById.values()]) {
      if (entry.view.agentId === agentId && entry.view.toolUseId === toolUseId) this.finish(entry, NO_DECISION, "answeredElsewhere");
    }
  }

  private onPermissionRequest(agentId: string, input: HookInput, signal: AbortSignal): object | Promise<object> {
    const toolName = str(input.tool_name);
    if (!toolName) {
      this.log(`PermissionRequest without tool_name from agent ${agentId}: no decision`);
      return NO_DECISION;
    }
    if (!this.isAvailable || signal.aborted) return NO_DECISION;
    if (this.isKnownAgent && !this.isKnownAgent(agentId)) {
      this.log(`PermissionRequest from agent ${agentId}, which has no card here: no decision (the terminal asks)`);
      return NO_DECISION;
    }

    const pendingOfAgent = this.pending(agentId).length;
    if (pendingOfAgent >= this.maxPendingPerAgent) {
      if (!this.overCap.has(agentId))
        this.log(
          `PermissionRequest from agent ${agentId}: ${pendingOfAgent} of its prompts already wait here; no decision (the terminal asks) until some ` +
            `are answered`,
        );
      this.overCap.add(agentId);
      return NO_DECISION;
    }
    this.overCap.delete(agentId);

    const suggestions = Array.isArray(input.permission_suggestions) ? (input.permission_suggestions as unknown[]) : [];
    const key = keyOf(input);
    const toolUseId = this.memory.claim(agentId, key);
    const subagentId = str(input.agent_id);
    const view: PendingPermission = {
      id: randomUUID(),
      agentId,
      sessionId: input.session_id,
      ...(toolUseId !== undefined && { toolUseId }),
      ...(subagentId !== undefined && { subagentId }),
      toolName,
      toolInput: input.tool_input,
      subject: permissionSubject(toolName, input.tool_input),
      canAlwaysAllow: suggestions.length > 0,
      receivedAt: this.clock.now(),
    };
    return new Promise<object>((resolve) => {
      const entry: Entry = {
        view,
        suggestions,
        input,
        respond: resolve,
        timer: this.clock.setTimeout(() => this.finish(entry, NO_DECISION, "timedOut"), this.decisionTimeoutMs),
      };
      this.pendingById.set(view.id, entry);
      // Escape at the terminal prompt (or the CLI going away) aborts the hook request.
      signal.addEventListener("abort", () => this.finish(entry, NO_DECISION, "answeredElsewhere"), { once: true });
      this.emit({ type: "added", request: { ...view } });
    });
  }

  private finish(entry: Entry, reply: object, reason: PermissionRemoval): void {
    if (this.pendingById.get(entry.view.id) !== entry) return;
    this.pendingById.delete(entry.view.id);
    entry.timer.cancel();
    entry.respond(reply);
    this.emit({ type: "removed", request: { ...entry.view }, reason });
  }

  private emit(change: PermissionChange): void {
    this.changed.fire(change);
  }
}

function keyOf(input: HookInput) {
  return { sessionId: input.session_id, promptId: str(input.prompt_id), toolName: str(input.tool_name) ?? "", toolInput: input.tool_input };
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}
