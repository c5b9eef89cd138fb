// The official TypeScript client: list, search, page to the end; it waits out 429s by itself.
//   API_URL=http://127.0.0.1:3000 API_KEY=wpc_... npx tsx docs/examples/client.ts [category]
import { ApiError, createWallpaperClient } from '../../clients/typescript/src/index.js';

const client = createWallpaperClient({
  baseUrl: process.env['API_URL'] ?? 'http://127.0.0.1:3000',
  apiKey: process.env['API_KEY'] ?? '',
  onWait: (ms, reason) => console.error(`${reason}: waiting ${Math.round(ms)} ms`),
});
const category = (process.argv[2] ?? 'space') as 'space';

const newest = await client.wallpapers.list({ per_page: 1 });
console.log(`newest: ${newest.data[0]?.title}`);
const found = await client.search.query({ q: 'mountain', per_page: 1 });
console.log(`search 'mountain': ${found.meta.total_items} results`);
// Wallpapers like the newest one (one page, never itself).
const like = await client.wallpapers.similar(newest.data[0]!.id, { per_page: 5 });
console.log(`like ${newest.data[0]!.id}: ${like.data.length} wallpapers`);
// By colour (a name or a hex), light or dark, with the palette in each item.
const darkBlue = await client.wallpapers.list({ color: ['blue', '#1e3a5f'], tone: 'dark', include: ['colors'], per_page: 1 });
console.log(`dark and blue: ${darkBlue.meta.total_items} wallpapers`);

let count = 0;
for await (const wallpaper of client.wallpapers.all({ category, per_page: 100 })) {
  if (wallpaper.category === category) count++;
}
console.log(`walked ${count} wallpapers in ${category}`);

try {
  await client.wallpapers.get(9_007_199_254_740_991);
} catch (err) {
  if (!(err instanceof ApiError)) throw err;
  console.log(`missing id: ${err.status} ${err.error}`);
}
