/** The status dot before a card's status text, with an icon for the states that need the user's eye. */
import type { CardStatus } from "../agentStatus";

// States that need the user's eye get a shape, not just a colour: an icon in place of the dot.
const ICON: Partial<Record<CardStatus, string>> = {
  needsYou: "bell-dot",
  compacting: "fold",
  exited: "debug-disconnect",
};

/** The coloured dot before the status text. Colour is never the only signal: the text says it too. */
export function StatusDot({ status }: { status: CardStatus }) {
  const icon = ICON[status];
  if (icon) {
    return (
      <span
        className={`codicon codicon-${icon} status-icon status-icon-${status}${status === "needsYou" || status === "compacting" ? " pulse" : ""}`}
        data-testid="status-icon"
        aria-hidden="true"
      />
    );
  }
  return <span className={`status-dot status-dot-${status}${status === "active" ? " pulse" : ""}`} aria-hidden="true" />;
}
