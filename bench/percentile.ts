/** The p-th percentile of samples sorted ascending (nearest rank, no interpolation). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
