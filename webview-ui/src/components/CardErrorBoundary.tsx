/** Keeps one agent's render error to its own line or details, logged, and retries on its next data. */
import { Component, type ReactNode } from "react";

/**
 * One card that fails to render (a malformed message, a bug on one agent's data) must not take
 * the panel down: React unmounts the whole tree on an uncaught render error, and with it every
 * other agent's prompts and buttons. This boundary keeps the failure to that card, logs it, and
 * tries again when the card's data changes (the next message may well be fine).
 */
interface Props {
  agentId: string;
  /** The card's data (agent, live view): any new value is a new chance to render. */
  resetKeys: readonly unknown[];
  children: ReactNode;
}

interface State {
  failedOn: readonly unknown[] | undefined;
  error: Error | undefined;
}

export class CardErrorBoundary extends Component<Props, State> {
  override state: State = { failedOn: undefined, error: undefined };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    // New data since the failure: render the card again.
    const { failedOn } = state;
    if (state.error && failedOn && props.resetKeys.some((key, i) => key !== failedOn[i])) return { error: undefined, failedOn: undefined };
    return null;
  }

  override componentDidCatch(error: unknown): void {
    this.setState({ failedOn: this.props.resetKeys });
    console.error(`Arcadia: the card of agent ${this.props.agentId} could not be shown:`, error);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <li className="agent-card card-error" data-testid="card-error" data-agent-id={this.props.agentId} role="alert">
        This agent's card could not be shown (see the webview's developer tools for the error). The other agents are not affected.
      </li>
    );
  }
}
