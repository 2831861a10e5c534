/**
 * How long each call waited for the user: a prompt on its row (Claude's permission prompt, an
 * Arcadia approval, a write's diff) opens a wait, the prompt leaving closes it, and a hook saying
 * the call ran marks that it was allowed. Kept per agent for the current turn's rows only (live
 * state, bounded): a new turn's prompt drops the waits that began before it.
 */
import type { ToolWait } from "../../core/agent";

/** Far more than the calls of one turn that ever wait on the user. */
const MAX_WAITS_PER_AGENT = 256;

export class ToolWaits {
  private readonly byAgent = new Map<string, Map<string, ToolWait>>();

  constructor(private readonly now: () => number) {}

  /**
   * The calls of `agentId` with a prompt open now. Opens waits for new ones and closes the waits
   * of those whose prompt went. Returns true when a wait opened or closed.
   */
  promptsOpen(agentId: string, toolUseIds: ReadonlySet<string>): boolean {
    let waits = this.byAgent.get(agentId);
    let changed = false;
    const now = this.now();
    for (const id of toolUseIds) {
      waits ??= this.waitsOf(agentId);
      const wait = waits.get(id);
      if (!wait) {
        if (waits.size >= MAX_WAITS_PER_AGENT) waits.delete(waits.keys().next().value as string);
        waits.set(id, { since: now });
        changed = true;
      } else if (wait.until !== undefined) {
        // Asked again (a second prompt for the same call): the wait goes on.
        delete wait.until;
        changed = true;
      }
    }
    for (const [id, wait] of waits ?? []) {
      if (wait.until === undefined && !toolUseIds.has(id)) {
        wait.until = now;
        changed = true;
      }
    }
    return changed;
  }

  /** A hook said the call ran (so a rejection after it is an interrupt, not a denial). */
  ran(agentId: string, toolUseId: string): boolean {
    const wait = this.byAgent.get(agentId)?.get(toolUseId);
    if (!wait || wait.ran) return false;
    wait.ran = true;
    return true;
  }

  /** When the call was allowed to run, if it waited and its prompt is answered. */
  allowedAt(agentId: string, toolUseId: string): number | undefined {
    return this.byAgent.get(agentId)?.get(toolUseId)?.until;
  }

  /** Its prompt is open now. */
  isWaiting(agentId: string, toolUseId: string): boolean {
    const wait = this.byAgent.get(agentId)?.get(toolUseId);
    return wait !== undefined && wait.until === undefined;
  }

  of(agentId: string): ReadonlyMap<string, ToolWait> {
    return this.byAgent.get(agentId) ?? EMPTY;
  }

  /** A new turn began at `at`: waits of the calls before it are history. */
  turnStarted(agentId: string, at: number): void {
    const waits = this.byAgent.get(agentId);
    if (!waits) return;
    for (const [id, wait] of waits) if (wait.until !== undefined && wait.since < at) waits.delete(id);
  }

  forget(agentId: string): void {
    this.byAgent.delete(agentId);
  }

  private waitsOf(agentId: string): Map<string, ToolWait> {
    let waits = this.byAgent.get(agentId);
    if (!waits) {
      waits = new Map();
      this.byAgent.set(agentId, waits);
    }
    return waits;
  }
}

const EMPTY: ReadonlyMap<string, ToolWait> = new Map();
