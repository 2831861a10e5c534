import type { CardStatus } from "../agentStatus";

/** The coloured dot before the status text. Colour is never the only signal: the text says it too. */
export function StatusDot({ status }: { status: CardStatus }) {
  return <span className={`status-dot status-dot-${status}${status === "active" ? " pulse" : ""}`} aria-hidden="true" />;
}
