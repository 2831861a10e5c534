/**
 * The one owner of every card. It follows the agents (transcript, status file, terminal), the live
 * board (calls, prompts and what each extra source adds) and the hook feed, composes one CardView
 * per agent, and tells a card's change once, only when the card really changed (one latch). The
 * panel, the status bar and notifications subscribe here and nowhere else; no source refreshes
 * another, so no loop needs an equality check to stop.
 */
import { isDeepStrictEqual } from "node:util";
import { DisposableObject, Emitter, type Event, latch } from "../../core/util";
import type { AgentFacts, CardView } from "../../shared/protocol";
import type { AgentChange } from "../agent/agentRegistry";
import type { AgentLiveView } from "./liveBoard";

export interface CardSources {
  agents: {
    onDidChange: Event<AgentChange>;
    /** Every card's agent part, in launch order (saved agents still reconnecting after a reload included). */
    views(): AgentFacts[];
    /** One agent's part as it is now. */
    view(agentId: string): AgentFacts | undefined;
  };
  live: {
    onDidChange: Event<AgentLiveView>;
    view(agentId: string): AgentLiveView;
    forget(agentId: string): void;
  };
  /** Agents whose hooks said something that shows on their rows (a tool began or ended). */
  hooks: { onDidChange: Event<string> };
}

export class CardStore extends DisposableObject {
  private readonly looked = this._register(new Emitter<CardView>());
  private readonly latest = this._register(latch<CardView>(this.looked.event, { key: (card) => card.id, equals: isDeepStrictEqual }));
  private readonly removed = this._register(new Emitter<string>());
  private readonly turnFinished = this._register(new Emitter<CardView>());

  /** A card changed (told only when it really did), or a new one appeared. */
  readonly onDidChangeCard = this.latest.event;
  readonly onDidRemoveCard = this.removed.event;
  /** An agent's turn ended (its card went from working to waiting), with the card as it is now. */
  readonly onDidFinishTurn = this.turnFinished.event;

  constructor(private readonly sources: CardSources) {
    super();
    this._register(sources.agents.onDidChange((change) => this.agentChanged(change)));
    this._register(sources.live.onDidChange((live) => this.look(live.agentId)));
    this._register(sources.hooks.onDidChange((agentId) => this.look(agentId)));
  }

  /**
   * Every card now, in launch order: what the panel paints first and what the status bar counts.
   * Composed afresh, not read from the latch: what is painted is what is true now, not what was
   * last told. A card its source never told (a reload's reconnecting cards once were not) would
   * be missing, and the panel would paint "no agents yet".
   */
  cards(): CardView[] {
    return this.sources.agents.views().map((facts) => compose(facts, this.sources.live.view(facts.id)));
  }

  private agentChanged(change: AgentChange): void {
    if (change.type === "updated") this.looked.fire(compose(change.agent, this.sources.live.view(change.agent.id)));
    else if (change.type === "turnFinished") this.turnFinished.fire(compose(change.agent, this.sources.live.view(change.agent.id)));
    else if (change.type === "removed") {
      this.latest.forget(change.id);
      this.sources.live.forget(change.id);
      this.removed.fire(change.id);
    }
  }

  /**
   * Something live about `agentId` changed: its card is composed again from both parts as they are
   * now. The live part is read after the agent's: looking at the agent may tell a turn's end, whose
   * listeners may change what is live before this card goes out.
   */
  private look(agentId: string): void {
    const facts = this.sources.agents.view(agentId);
    if (facts) this.looked.fire(compose(facts, this.sources.live.view(agentId)));
  }
}

function compose(facts: AgentFacts, live: AgentLiveView): CardView {
  const { agentId: _agentId, ...liveFacts } = live;
  return { ...facts, ...liveFacts };
}
