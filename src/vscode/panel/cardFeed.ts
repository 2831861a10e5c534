/**
 * The panel's view of the cards: everything at once (the page's first paint and every `webviewReady`,
 * one function for both) and then each card as it changes. The card store is the only source.
 */
import type { CardStore } from "../../agents/cards/cardStore";
import { combinedDisposable, type Disposable } from "../../core/util";
import type { ExtensionMessage, NoticeView } from "../../shared/protocol";
import type { PanelSnapshot } from "../../shared/protocols/panel";

export type CardSource = Pick<CardStore, "cards" | "onDidChangeCard" | "onDidRemoveCard">;

export function panelSnapshot(cards: Pick<CardSource, "cards">, notice: NoticeView | null): PanelSnapshot {
  return { type: "snapshot", cards: cards.cards(), notice };
}

export function followCards(cards: CardSource, post: (message: ExtensionMessage) => void): Disposable {
  return combinedDisposable(
    cards.onDidChangeCard((card) => post({ type: "cardChanged", card })),
    cards.onDidRemoveCard((id) => post({ type: "cardRemoved", id })),
  );
}
