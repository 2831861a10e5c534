/**
 * The panel's view of the cards: everything at once (the page's first paint and every `webviewReady`,
 * one function for both) and then each card as it changes. The card store is the only source.
 */
import type { CardStore } from "../agents/cardStore";
import { DisposableStore, type Disposable } from "../core/util";
import type { ExtensionMessage, NoticeView } from "../shared/protocol";
import type { PanelSnapshot } from "../shared/protocols/panel";

export type CardSource = Pick<CardStore, "cards" | "onDidChangeCard" | "onDidRemoveCard">;

export function panelSnapshot(cards: Pick<CardSource, "cards">, notice: NoticeView | null): PanelSnapshot {
  return { type: "snapshot", cards: cards.cards(), notice };
}

export function followCards(cards: CardSource, post: (message: ExtensionMessage) => void): Disposable {
  const subscriptions = new DisposableStore();
  subscriptions.add(cards.onDidChangeCard((card) => post({ type: "cardChanged", card })));
  subscriptions.add(cards.onDidRemoveCard((id) => post({ type: "cardRemoved", id })));
  return subscriptions;
}
