import { generateWallpapers } from '../src/catalogue/generation/generator.js';
import { toIndexDocument, toDetail } from '../src/wallpapers/store/index-document.js';
import { toWallpaper, toListItem } from '../src/wallpapers/wallpaper.js';
const docs = [...generateWallpapers({ count: 20, seed: 1, imageBaseUrl: 'https://images.wallpapers.example' })];
const excl = new Set(['suggest', 'palette', 'color_names']);
const strip = (o: object, drop: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !excl.has(k) && !drop.includes(k)));
const newSrc = docs.map((d) => strip(toIndexDocument(d), []));
const oldSrc = docs.map((d) => strip(toIndexDocument(d), ['tags', 'colors', 'tone']));
const wrap = (src: object[]) => JSON.stringify({ responses: [{ hits: { total: { value: 1000000 }, hits: src.map((s, i) => ({ _index: 'api-bench-1m-2026', _source: s, sort: [1782678184000 - i, 1000 - i] })) }, status: 200 }] });
const oldText = wrap(oldSrc), newText = wrap(newSrc);
console.log('bytes old', oldText.length, 'new', newText.length);
function bench(name: string, fn: () => unknown) { for (let i = 0; i < 2000; i++) fn(); const t = performance.now(); for (let i = 0; i < 20000; i++) fn(); console.log(name, ((performance.now() - t) / 20000 * 1000).toFixed(1), 'µs'); }
bench('parse old', () => JSON.parse(oldText));
bench('parse new', () => JSON.parse(newText));
bench('old: parse+toWallpaper', () => (JSON.parse(oldText).responses[0].hits.hits as any[]).map((h) => toWallpaper(h._source)));
bench('new: parse+toDetail+toListItem', () => (JSON.parse(newText).responses[0].hits.hits as any[]).map((h) => toListItem(toDetail(h._source), undefined)));
bench('new: parse+toDetail', () => (JSON.parse(newText).responses[0].hits.hits as any[]).map((h) => toDetail(h._source)));
