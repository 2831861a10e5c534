/** A card's action button that names what it acts on for screen readers, in the toolkit's look. */
import { VSCodeButton } from "@vscode/webview-ui-toolkit/react";
import type { ReactNode, SyntheticEvent } from "react";

interface ActionButtonProps {
  testId: string;
  /** What a screen reader says: names the thing acted on ("Cancel execute_command"). */
  label: string;
  title: string;
  appearance?: "primary" | "secondary" | "icon";
  disabled?: boolean;
  onPress: () => void;
  children: ReactNode;
}

// Clicks and keys on a button inside a card must not also focus the agent's terminal (the card's action).
const stop = (e: SyntheticEvent) => e.stopPropagation();

/** A button on a card: keyboard reachable (the toolkit button), labelled, never triggering the card. */
export function ActionButton({ testId, label, title, appearance = "secondary", disabled = false, onPress, children }: ActionButtonProps) {
  return (
    <VSCodeButton
      className="action-button"
      appearance={appearance}
      data-testid={testId}
      aria-label={label}
      title={title}
      disabled={disabled}
      onClick={(e: SyntheticEvent) => {
        e.stopPropagation();
        // A disabled toolkit button can still see a click dispatched at it; the handler decides.
        if (!disabled) onPress();
      }}
      onKeyDown={stop}
    >
      {children}
    </VSCodeButton>
  );
}
