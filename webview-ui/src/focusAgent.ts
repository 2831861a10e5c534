/** The one handler that shows an agent's terminal on a click, Enter or Space on its line or card. */
import type { KeyboardEvent } from "react";
import { post } from "./clients/panelClient";

/**
 * Shows an agent's terminal: what a click on its line or card does, and Enter or Space on the
 * line or card itself (not on a button inside it: that key is the button's business).
 */
export function focusAgentHandlers(id: string): { onClick: () => void; onKeyDown: (e: KeyboardEvent) => void } {
  const focus = () => post({ type: "focusAgent", id });
  return {
    onClick: focus,
    onKeyDown: (e) => {
      if (e.target !== e.currentTarget) return;
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        focus();
      }
    },
  };
}
