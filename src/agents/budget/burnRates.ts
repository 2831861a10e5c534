/**
 * Each agent's burn rate: samples of its spend taken as it changes (bounded to the rate's window),
 * its dollars per hour now, and all agents' together for the status bar's tooltip.
 */
import { burnRate, capEtaText, dollars, keptSamples, rateText, type SpendSample, timeToCap } from "../../core/budget";

export class BurnRates {
  private readonly samples = new Map<string, SpendSample[]>();

  constructor(private readonly now: () => number) {}

  /** The agent has spent `usd` now (kept when it moved). */
  sample(agentId: string, usd: number): void {
    const now = this.now();
    const kept = keptSamples(this.samples.get(agentId) ?? [], now);
    if (kept.at(-1)?.usd !== usd) kept.push({ at: now, usd });
    this.samples.set(agentId, kept);
  }

  /** USD per hour, once a minute of spending is seen. */
  rate(agentId: string): number | undefined {
    return burnRate(this.samples.get(agentId) ?? [], this.now());
  }

  /** The agents' rates summed; undefined when none has one. */
  total(agentIds: readonly string[]): number | undefined {
    let sum: number | undefined;
    for (const id of agentIds) {
      const rate = this.rate(id);
      if (rate !== undefined) sum = (sum ?? 0) + rate;
    }
    return sum;
  }

  /** The agents with samples (their rates move with time). */
  agentIds(): string[] {
    return [...this.samples.keys()];
  }

  forget(agentId: string): void {
    this.samples.delete(agentId);
  }
}

/** "$4.10/h for all agents · today $12.30 of $20.00 · at this rate the cap is reached in 25 min", for the status bar's tooltip. */
export function allAgentsSummary(rate: number | undefined, today: { spentUsd: number; capUsd: number } | undefined): string | undefined {
  const parts = [
    rate !== undefined ? `${rateText(rate)} for all agents` : undefined,
    today ? `today ${dollars(today.spentUsd)} of ${dollars(today.capUsd)}` : undefined,
    today && rate !== undefined ? capEtaText(timeToCap(today.spentUsd, today.capUsd, rate)) : undefined,
  ].filter((p): p is string => p !== undefined);
  return parts.length > 0 ? parts.join(" · ") : undefined;
}
