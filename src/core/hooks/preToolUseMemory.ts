/**
 * The PreToolUse inputs of each agent, remembered so that a PermissionRequest (which carries no
 * tool_use id) can be given the id of its call: same session, same prompt_id, same tool name,
 * same tool_input. Each remembered call is claimed by at most one request, so two calls with
 * identical inputs still get one request each. Forgotten at PostToolUse/PostToolUseFailure;
 * calls that never get one (denied with Escape, interrupted) fall off the end of a bounded list.
 *
 * Bounded in bytes too: a tool_input can be as large as the body cap (4 MB), so only its SHA-256
 * (of a key-order-independent JSON form: equal JSON values, equal digests) is kept, never the
 * input itself: 256 remembered calls per agent cost a few KB, not a GB.
 */
import { createHash } from "node:crypto";

export const DEFAULT_MAX_REMEMBERED_PER_AGENT = 256;

export interface ToolCallKey {
  sessionId: string;
  /** Absent in hook inputs of older CLIs: then it does not take part in matching. */
  promptId: string | undefined;
  toolName: string;
  toolInput: unknown;
}

export interface RememberedCall {
  sessionId: string;
  promptId: string | undefined;
  toolName: string;
  inputDigest: string;
  toolUseId: string;
  claimed: boolean;
}

export class PreToolUseMemory {
  private readonly byAgent = new Map<string, RememberedCall[]>();

  constructor(private readonly maxPerAgent = DEFAULT_MAX_REMEMBERED_PER_AGENT) {}

  remember(agentId: string, call: ToolCallKey & { toolUseId: string }): RememberedCall {
    const calls = this.byAgent.get(agentId) ?? [];
    this.byAgent.set(agentId, calls);
    const existing = calls.find((c) => c.toolUseId === call.toolUseId);
    if (existing) return existing;
    const { toolInput, ...rest } = call;
    const entry: RememberedCall = { ...rest, inputDigest: inputDigest(toolInput), claimed: false };
    calls.push(entry);
    if (calls.length > this.maxPerAgent) calls.splice(0, calls.length - this.maxPerAgent);
    return entry;
  }

  /** Claims the oldest unclaimed call matching `key`; its tool_use id, or undefined. */
  claim(agentId: string, key: ToolCallKey): string | undefined {
    const calls = this.byAgent.get(agentId);
    if (!calls) return undefined;
    const digest = inputDigest(key.toolInput);
    const call = calls.find((c) => !c.claimed && sameCall(c, key, digest));
    if (!call) return undefined;
    call.claimed = true;
    return call.toolUseId;
  }

  forget(agentId: string, toolUseId: string): void {
    const calls = this.byAgent.get(agentId);
    if (!calls) return;
    const i = calls.findIndex((c) => c.toolUseId === toolUseId);
    if (i >= 0) calls.splice(i, 1);
    if (calls.length === 0) this.byAgent.delete(agentId);
  }

  forgetAgent(agentId: string): void {
    this.byAgent.delete(agentId);
  }
}

/** Whether a remembered call is the one `key` (a PermissionRequest's input) asks about. */
export function matches(call: RememberedCall, key: ToolCallKey): boolean {
  return sameCall(call, key, inputDigest(key.toolInput));
}

function sameCall(a: RememberedCall, b: ToolCallKey, bDigest: string): boolean {
  return (
    a.sessionId === b.sessionId &&
    (a.promptId === undefined || b.promptId === undefined || a.promptId === b.promptId) &&
    a.toolName === b.toolName &&
    a.inputDigest === bDigest
  );
}

/** SHA-256 of the value as JSON with object keys sorted (hook inputs are parsed JSON). */
export function inputDigest(value: unknown): string {
  let json: string | undefined;
  try {
    json = canonicalJson(value) ?? "undefined";
  } catch {
    // Nested deeper than the stack allows (a hostile input): it matches nothing, and never throws.
    return `unmatchable-${unmatchable++}`;
  }
  return createHash("sha256").update(json).digest("base64url");
}

let unmatchable = 0;

function canonicalJson(value: unknown): string | undefined {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v) ?? "null").join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const fields = Object.keys(value)
      .sort()
      .flatMap((k) => {
        const v = canonicalJson((value as Record<string, unknown>)[k]);
        return v === undefined ? [] : [`${JSON.stringify(k)}:${v}`];
      });
    return `{${fields.join(",")}}`;
  }
  return JSON.stringify(value);
}
