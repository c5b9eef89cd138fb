// npx tsx bench/search/first-picks.ts 10000 1000000 10000000   (sort=random along a key: how even is page 1?)
// Worked out from the keys themselves, no Elasticsearch: wallpapers 1..N keyed as the catalogue
// keys them (shuffle.ts, key 0), a seed's offset drawn evenly over the key's range and its start
// drawn evenly among the first `spread` wallpapers from the offset up, counted round the key as
// the API counts them (past the top, on from the bottom). A wallpaper then comes first with the
// mean of the `spread` gaps below it and the ones before: exact for N ≥ spread, where the API
// never counts round the matches twice. Printed per spread: that chance as a multiple of the even
// share 1/N, its lowest, highest, 1st and 99th percentiles, and its coefficient of variation.
import { shuffleKey } from '../../src/wallpapers/store/shuffle.js';

const sizes = process.argv.slice(2).map(Number);
const SPREADS = [1, 16, 64, 256, 1024, 4096];

const percentile = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

console.log('| wallpapers | spread | lowest | 1st percentile | 99th percentile | highest | coefficient of variation |');
console.log('|--:|--:|--:|--:|--:|--:|--:|');
for (const n of sizes.length > 0 ? sizes : [10_000, 1_000_000]) {
  const keys = new Float64Array(n);
  for (let id = 1; id <= n; id++) keys[id - 1] = shuffleKey(id, 0);
  keys.sort();
  // gaps[i]: the share of the key's range whose offset lands on wallpaper i (the gap below its key).
  const gaps = new Float64Array(n);
  for (let i = 0; i < n; i++) gaps[i] = (i === 0 ? keys[0]! + 2 ** 32 - keys[n - 1]! : keys[i]! - keys[i - 1]!) / 2 ** 32;
  for (const spread of SPREADS.filter((s) => s <= n)) {
    const shares = new Float64Array(n);
    // The `spread` gaps ending at i, summed as the window slides round the cycle (it starts just before 0).
    let window = 0;
    for (let t = 1; t <= spread; t++) window += gaps[n - t]!;
    for (let i = 0; i < n; i++) {
      window += gaps[i]! - gaps[(i - spread + n) % n]!;
      shares[i] = (window / spread) * n;
    }
    let sum = 0;
    let squares = 0;
    for (const share of shares) {
      sum += share;
      squares += share * share;
    }
    const mean = sum / n;
    const cv = Math.sqrt(squares / n - mean * mean) / mean;
    shares.sort();
    const f = (x: number) => x.toFixed(3);
    console.log(
      `| ${n.toLocaleString('en')} | ${spread} | ${f(shares[0]!)} | ${f(percentile(shares, 0.01))} | ${f(percentile(shares, 0.99))} | ${f(shares[n - 1]!)} | ${f(cv)} |`,
    );
  }
}
