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
