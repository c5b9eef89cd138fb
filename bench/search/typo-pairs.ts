// npx tsx bench/search/typo-pairs.ts --url http://127.0.0.1:3000 --key KEY [--show]
// How close a typo's first page comes to the page of the word meant: for each pair of
// bench/search/typo-pairs.json (a typo, the query typed right), the share of the right query's
// first ten wallpapers that the typo's first ten hold, and how many typos find nothing where the
// right query finds some. The pairs were written by helper-81 from the demo catalogue's words: one
// word with one typo (a letter dropped, doubled, swapped or changed), two words with one typo, and
// misspelt category names. Run it against the demo catalogue (`npm run up`).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { url: { type: 'string', default: 'http://127.0.0.1:3000' }, key: { type: 'string' }, show: { type: 'boolean', default: false } },
});
if (values.key === undefined) throw new Error('--key is required');
const sets = JSON.parse(readFileSync(new URL('typo-pairs.json', import.meta.url), 'utf8')) as Record<string, [string, string][]>;

interface Page {
  total: number;
  ids: number[];
  titles: string[];
}

async function firstPage(q: string): Promise<Page> {
  const response = await fetch(`${values.url}/v1/search?per_page=10&q=${encodeURIComponent(q)}`, {
    headers: { authorization: `Bearer ${values.key}` },
  });
  if (response.status !== 200) throw new Error(`${q}: ${response.status} ${await response.text()}`);
  const { data, meta } = (await response.json()) as { data: { id: number; title: string }[]; meta: { total_items: number } };
  return { total: meta.total_items, ids: data.map(({ id }) => id), titles: data.slice(0, 3).map(({ title }) => title) };
}

for (const [set, pairs] of Object.entries(sets)) {
  let sum = 0;
  let empty = 0;
  const below: string[] = [];
  for (const [typo, right] of pairs) {
    const [typed, meant] = [await firstPage(typo), await firstPage(right)];
    const wanted = Math.min(10, meant.ids.length);
    const overlap = wanted === 0 ? 1 : typed.ids.filter((id) => meant.ids.includes(id)).length / wanted;
    sum += overlap;
    if (typed.total === 0 && meant.total > 0) empty++;
    if (overlap < 0.5) below.push(`${typo} (${right}): ${overlap.toFixed(1)}, ${typed.total} found: ${typed.titles.join(' | ')}`);
  }
  console.log(`${set}: ${pairs.length} pairs, mean overlap@10 ${(sum / pairs.length).toFixed(3)}, ${empty} find nothing, ${below.length} below half`);
  if (values.show) for (const line of below) console.log(`  ${line}`);
}
