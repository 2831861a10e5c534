/**
 * Which `Agent` call owns a sub-agent's records. Current CLIs write sub-agents to their own files
 * (linked by `.meta.json`); CLIs before 2.0 wrote them inline with `isSidechain: true`, linked only
 * by the prompt they were given. The rule when nothing names the owner: the open Agent call given
 * exactly the sub-agent's first prompt, else the oldest open one not yet claimed.
 *
 * The open calls not yet claimed are indexed (in start order, and by prompt) as they start and
 * end: a scan of every open tool per sidechain record made 40,000 old-style records take 16 s.
 */
import type { RecordSource } from "./recordSource";
import { asString, contentText, isObject, type Json } from "./recordShapes";

/** The answer for nearly every record, made once (one per record showed in the 20,000-tool bench). */
const NOT_A_SUBAGENT: { isSubagent: boolean; parent: string | null } = Object.freeze({ isSubagent: false, parent: null });

export class SubagentLinks {
  /** Sub-agent (agentId or inline chain) → the Agent call that owns it. */
  private readonly parents = new Map<string, string | null>();
  /** Inline sidechain records of old CLIs: record uuid → owning Agent call. */
  private readonly sidechainChain = new Map<string, string | null>();
  private readonly claimed = new Set<string>();
  /** Open Agent calls nobody has claimed yet, oldest first: id → the prompt it was given (trimmed). */
  private readonly unclaimed = new Map<string, string | undefined>();
  /** The same calls by prompt, oldest first. */
  private readonly unclaimedByPrompt = new Map<string, Set<string>>();

  /** @param standalone the file is itself a sub-agent's transcript: its sidechain records are its own. */
  constructor(private readonly standalone: boolean) {}

  /** An Agent call started (told by the tools in flight): a sub-agent may claim it. */
  agentCallStarted(id: string, input: unknown): void {
    if (this.claimed.has(id)) return; // linked by its .meta.json before its record was read
    const prompt = isObject(input) ? asString(input.prompt)?.trim() : undefined;
    this.unclaimed.set(id, prompt);
    if (prompt === undefined) return;
    const same = this.unclaimedByPrompt.get(prompt);
    if (same) same.add(id);
    else this.unclaimedByPrompt.set(prompt, new Set([id]));
  }

  /** Registers a sub-agent transcript's owner, e.g. from its `.meta.json`. */
  link(agentId: string, parentToolId: string): void {
    this.parents.set(agentId, parentToolId);
    this.claim(parentToolId);
  }

  /** The Agent call that owns this sub-agent, when known. */
  parentOf(agentId: string): string | undefined {
    return this.parents.get(agentId) ?? undefined;
  }

  /** The call ended: it can no longer be claimed, and need not be remembered. */
  forget(toolId: string): void {
    if (this.claimed.size > 0) this.claimed.delete(toolId);
    if (this.unclaimed.size > 0) this.unindex(toolId);
  }

  /** A new turn: inline sidechains never continue across one. */
  newTurn(): void {
    this.sidechainChain.clear();
  }

  /** Whether a record belongs to a sub-agent, and which `Agent` call owns it. */
  ownerOf(record: Json, source: RecordSource): { isSubagent: boolean; parent: string | null } {
    if (source.kind === "subagent") {
      const known = source.parentToolId ?? this.parents.get(source.agentId);
      if (known !== undefined && known !== null) return { isSubagent: true, parent: known };
      const claimed = this.claimAgentCall(source.prompt ?? promptOf(record));
      if (claimed) this.parents.set(source.agentId, claimed);
      return { isSubagent: true, parent: claimed };
    }
    if (record.isSidechain !== true || this.standalone) return NOT_A_SUBAGENT;
    const uuid = asString(record.uuid);
    const parentUuid = asString(record.parentUuid);
    let parent: string | null;
    if (parentUuid !== undefined && this.sidechainChain.has(parentUuid)) {
      parent = this.sidechainChain.get(parentUuid) ?? null;
    } else {
      parent = this.claimAgentCall(promptOf(record));
    }
    if (uuid) this.sidechainChain.set(uuid, parent);
    return { isSubagent: true, parent };
  }

  /** The open Agent call given exactly this prompt, else the oldest open one not yet claimed. */
  private claimAgentCall(prompt: string | undefined): string | null {
    const same = prompt === undefined ? undefined : this.unclaimedByPrompt.get(prompt.trim());
    const id = same?.values().next().value ?? this.unclaimed.keys().next().value ?? null;
    if (id !== null) this.claim(id);
    return id;
  }

  private claim(id: string): void {
    this.claimed.add(id);
    this.unindex(id);
  }

  private unindex(id: string): void {
    if (!this.unclaimed.has(id)) return;
    const prompt = this.unclaimed.get(id);
    this.unclaimed.delete(id);
    if (prompt === undefined) return;
    const same = this.unclaimedByPrompt.get(prompt);
    same?.delete(id);
    if (same?.size === 0) this.unclaimedByPrompt.delete(prompt);
  }
}

function promptOf(record: Json): string | undefined {
  const message = isObject(record.message) ? record.message : undefined;
  if (!message || record.type !== "user") return undefined;
  const text = contentText(message.content);
  return text || undefined;
}
