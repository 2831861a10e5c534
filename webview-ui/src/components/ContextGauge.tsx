/** The card's context gauge: how full the agent's context window is, drawn without style attributes. */
import type { CardView } from "../../../src/shared/protocol";
import { contextGauge } from "../contextUsage";

/**
 * How full the agent's context window is. The bar is an SVG rect sized by its `width` attribute:
 * the panel's CSP allows no style attributes, and this needs none.
 */
export function ContextGauge({ context }: { context: CardView["context"] | undefined }) {
  const gauge = contextGauge(context);
  if (!gauge) return null;
  const { percent, warning, text } = gauge;
  return (
    <div
      className={`context-gauge${warning ? " context-warning" : ""}`}
      data-testid="context-gauge"
      data-percent={percent}
      data-warning={warning ? "true" : undefined}
      role="meter"
      aria-label="Context window used"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${percent}%, ${text}`}
      title={`Context: ${text} (${percent}%)`}
    >
      <svg className="context-bar" viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true" focusable="false">
        <rect className="context-track" x="0" y="0" width="100" height="4" />
        <rect className="context-fill" x="0" y="0" width={percent} height="4" />
      </svg>
      <span className="context-percent" aria-hidden="true">
        {percent}%
      </span>
    </div>
  );
}
