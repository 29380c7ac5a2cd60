/** Small statistics shared by the benchmark scripts. */

/** The nearest-rank `p`th percentile of ascending `sorted` values (NaN when empty). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
