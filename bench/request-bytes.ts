// What knowing each bulk line's bytes costs the loader (bulk-load.ts bounds a request by them):
//   npx tsx bench/request-bytes.ts
// 200,000 generated wallpapers as the index stores them: JSON.stringify of each (which the client
// did before, and the loader does now) against Buffer.byteLength of the lines it made.
import { generateWallpapers } from '../src/catalogue/generation/generator.js';
import { toIndexDocument, createTitleCarriers } from '../src/wallpapers/store/index-document.js';
const carriers = createTitleCarriers();
const docs = [...generateWallpapers({ count: 200_000, seed: 1, imageBaseUrl: 'https://i.example' })].map((d) =>
  toIndexDocument(d, { suggest: carriers(d.title, d.downloads), shuffle: true }),
);
for (let round = 0; round < 3; round++) {
  let t = performance.now();
  const lines = docs.map((d) => JSON.stringify(d));
  const stringify = performance.now() - t;
  t = performance.now();
  let bytes = 0;
  for (const line of lines) bytes += Buffer.byteLength(line) + 1;
  const measure = performance.now() - t;
  console.log(
    `200k docs: stringify ${stringify.toFixed(0)} ms, byteLength ${measure.toFixed(1)} ms (${(bytes / 200000).toFixed(0)} B/doc, ${((measure / stringify) * 100).toFixed(1)} % of stringify)`,
  );
}
