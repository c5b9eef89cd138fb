// Generation speed alone, no I/O: npx tsx bench/generator-throughput.ts [count] [rounds]
import { generateWallpapers } from '../src/catalogue/generation/generator.js';

const count = Number(process.argv[2] ?? 1_000_000);
const rounds = Number(process.argv[3] ?? 3);
for (let round = 1; round <= rounds; round++) {
  const started = performance.now();
  let bytes = 0;
  for (const doc of generateWallpapers({ count, seed: round, imageBaseUrl: 'https://images.wallpapers.example' })) bytes += doc.description.length;
  const seconds = (performance.now() - started) / 1000;
  console.log(`round ${round}: ${count} docs in ${seconds.toFixed(2)}s = ${Math.round(count / seconds)} docs/s (${bytes} description chars)`);
}
