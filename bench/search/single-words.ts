// npx tsx bench/search/single-words.ts --url http://127.0.0.1:3000 --key KEY [--show]
// What a search of one real word the catalogue holds nowhere answers, on
// bench/search/single-word-judgments.json: helper-92's 107 words, written blind to the search code
// from the demo catalogue's data, each checked against Elasticsearch. "typo": a real word typed one
// edit from a word of the catalogue's titles (`meant`), answered right when the first wallpaper's
// title holds that word; "lacked": a thing meant as typed, one edit from a catalogue word (`near`),
// answered wrong when the first title holds that word (the typo read as meant), else nothing or
// wallpapers of its meaning (listed); "inflected": a form of a title word (`meant`) the catalogue
// never uses. Run it against the demo catalogue (`npm run up`).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { inTitle } from '../../src/wallpapers/domain/with-suggestion.js';

const { values } = parseArgs({
  options: { url: { type: 'string', default: 'http://127.0.0.1:3000' }, key: { type: 'string' }, show: { type: 'boolean', default: false } },
});
if (values.key === undefined) throw new Error('--key is required');

interface Judgment {
  kind: 'typo' | 'lacked' | 'inflected';
  q: string;
  meant?: string;
  near?: string;
}
const { queries } = JSON.parse(readFileSync(new URL('single-word-judgments.json', import.meta.url), 'utf8')) as { queries: Judgment[] };

const tally = new Map<string, number>();
for (const judgment of queries) {
  const response = await fetch(`${values.url}/v1/search?per_page=10&q=${encodeURIComponent(judgment.q)}`, {
    headers: { authorization: `Bearer ${values.key}` },
  });
  if (response.status !== 200) throw new Error(`${judgment.q}: ${response.status}`);
  const { data, meta } = (await response.json()) as { data: { title: string }[]; meta: { total_items: number } };
  const first = data[0]?.title;
  const verdict =
    first === undefined
      ? 'nothing'
      : judgment.kind === 'lacked'
        ? inTitle(first, judgment.near!)
          ? 'the near word (wrong)'
          : 'something else'
        : inTitle(first, judgment.meant!)
          ? 'the word meant (right)'
          : 'something else';
  const name = `${judgment.kind}: ${verdict}`;
  tally.set(name, (tally.get(name) ?? 0) + 1);
  if (values.show || verdict === 'something else' || (judgment.kind !== 'lacked' && verdict === 'nothing'))
    console.log(
      `${judgment.kind} ${judgment.q}${judgment.meant ? ` (meant ${judgment.meant})` : ` (near ${judgment.near})`}: ${verdict}; ${meta.total_items} found, first ${first ?? '-'}`,
    );
}
for (const [name, count] of [...tally].sort()) console.log(`${name}: ${count}`);
