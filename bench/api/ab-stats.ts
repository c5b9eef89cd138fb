// Statistics of an A/B run: each freshly started server process carries an offset of its own, so
// a comparison is between two samples of processes, not between rounds.

export function median(xs: number[]): number {
  if (xs.length === 0) throw new Error('median of no values');
  const sorted = [...xs].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Percentile bootstrap (5th and 95th) of median(a) / median(b), resampling the processes of each
 * side independently. Seeded, so the same figures always print the same interval.
 */
export function bootstrapRatioOfMedians(a: number[], b: number[], resamples = 4000): [number, number] {
  let state = 0x9e3779b9;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const resample = (xs: number[]) => xs.map(() => xs[Math.floor(next() * xs.length)]!);
  const ratios = Array.from({ length: resamples }, () => median(resample(a)) / median(resample(b))).sort((x, y) => x - y);
  return [ratios[Math.floor(resamples * 0.05)]!, ratios[Math.floor(resamples * 0.95)]!];
}

/**
 * Two-sided p-value of an exact sign-flip (paired permutation) test that `logRatios` (one per
 * pair of fresh processes, e.g. ln(A/C) where C is a second process of B's build) are centred on
 * zero: under "A costs what identical code costs", each pair's sign is as likely either way. The
 * statistic is the mean; all 2^n sign patterns are enumerated, so n is limited to 20.
 */
export function signFlipPValue(logRatios: number[]): number {
  const n = logRatios.length;
  if (n === 0) throw new Error('sign-flip test of no values');
  if (n > 20) throw new Error('sign-flip test enumerates 2^n patterns: at most 20 values');
  const observed = Math.abs(logRatios.reduce((sum, x) => sum + x, 0));
  let atLeast = 0;
  const patterns = 2 ** n;
  for (let pattern = 0; pattern < patterns; pattern++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += pattern & (1 << i) ? -logRatios[i]! : logRatios[i]!;
    // A tolerance for floating-point sums of the same values in another order.
    if (Math.abs(sum) >= observed - 1e-12) atLeast++;
  }
  return atLeast / patterns;
}
