/**
 * When to tell the user about an agent outside the panel: only when its card is not in front of
 * them (panel hidden, card scrolled away, window unfocused: `seen` says), and at most once per
 * agent per transition into "needs you" — a prompt that stays open is not announced again on every
 * update. Pure (the notification itself is the caller's), so the rules are unit-tested.
 */
import type { AgentFacts, NeedsYouView } from "../../shared/protocol";

export class Attention {
  /** Per agent: the needs-you kind last announced, until the agent leaves that state. */
  private readonly announced = new Map<string, NeedsYouView["kind"]>();

  constructor(private readonly seen: (agentId: string) => boolean) {}

  /** The card changed: what to announce now, if anything. */
  needsYou(view: AgentFacts): NeedsYouView["kind"] | undefined {
    if (view.status !== "needsYou" || !view.needsYou) {
      this.announced.delete(view.id);
      return undefined;
    }
    const kind = view.needsYou.kind;
    if (this.announced.get(view.id) === kind) return undefined;
    if (this.seen(view.id)) return undefined;
    this.announced.set(view.id, kind);
    return kind;
  }

  /** The agent still needs you for what was announced (its notification stays until then). */
  stillNeeds(agentId: string, kind: NeedsYouView["kind"]): boolean {
    return this.announced.get(agentId) === kind;
  }

  /** A turn finished: worth a word only if the user cannot see the card. */
  turnFinished(view: AgentFacts): boolean {
    return !this.seen(view.id);
  }

  forget(agentId: string): void {
    this.announced.delete(agentId);
  }
}

/** The next agent after `currentId` (in card order, wrapping) whose status is "needs you". */
export function nextNeedingYou(agents: readonly AgentFacts[], currentId: string | undefined): AgentFacts | undefined {
  const ordered = [...agents].sort((a, b) => a.index - b.index);
  const start = currentId === undefined ? -1 : ordered.findIndex((a) => a.id === currentId);
  for (let step = 1; step <= ordered.length; step++) {
    const agent = ordered[(start + step + ordered.length) % ordered.length]!;
    if (agent.status === "needsYou") return agent;
  }
  return undefined;
}
