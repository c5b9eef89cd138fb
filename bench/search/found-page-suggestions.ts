// npx tsx bench/search/found-page-suggestions.ts --url http://127.0.0.1:3000 --key KEY [--show]
// What a search suggests (meta.did_you_mean, domain/with-suggestion.ts) when one of its words is a
// real word the catalogue holds nowhere, on bench/search/found-page-judgments.json: helper-90's 102
// queries, written blind to the search code from the demo catalogue's data, each checked against
// Elasticsearch. "typo": a real word typed one edit from a catalogue word of titles (`meant`), judged
// right when suggested as that word (in either number); "lacked": the word means what it says, a thing or quality the
// catalogue lacks one edit from a catalogue word (`near`), where any suggestion is wrong. Most of
// them find something (the other words). Run it against the demo catalogue (`npm run up`).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { singularOf } from '../../src/wallpapers/domain/query-meaning.js';

const { values } = parseArgs({
  options: { url: { type: 'string', default: 'http://127.0.0.1:3000' }, key: { type: 'string' }, show: { type: 'boolean', default: false } },
});
if (values.key === undefined) throw new Error('--key is required');

interface Judgment {
  kind: 'typo' | 'lacked';
  q: string;
  typed: string;
  meant?: string;
  edit?: string;
}
interface Suggestion {
  corrections: { typed: string; meant: string }[];
  total_items: number;
}

const { queries } = JSON.parse(readFileSync(new URL('found-page-judgments.json', import.meta.url), 'utf8')) as { queries: Judgment[] };

async function answer(q: string) {
  const response = await fetch(`${values.url}/v1/search?per_page=10&q=${encodeURIComponent(q)}`, {
    headers: { authorization: `Bearer ${values.key}` },
  });
  if (response.status !== 200) throw new Error(`${q}: ${response.status} ${await response.text()}`);
  const { data, meta } = (await response.json()) as { data: { title: string }[]; meta: { total_items: number; did_you_mean?: Suggestion } };
  return { total: meta.total_items, first: data[0]?.title, suggestion: meta.did_you_mean };
}

const tally = new Map<string, number>();
const add = (name: string) => tally.set(name, (tally.get(name) ?? 0) + 1);
for (const judgment of queries) {
  const { total, first, suggestion } = await answer(judgment.q);
  const where = total > 0 ? 'finding something' : 'finding nothing';
  const said = suggestion?.corrections.find(({ typed }) => typed === judgment.typed)?.meant;
  const verdict =
    judgment.kind === 'typo'
      ? said !== undefined && singularOf(said) === singularOf(judgment.meant!)
        ? 'suggested as meant'
        : suggestion === undefined
          ? 'not suggested'
          : 'suggested otherwise'
      : suggestion === undefined
        ? 'not suggested'
        : 'suggested (wrong)';
  add(`${judgment.kind}, ${where}: ${verdict}`);
  add(`${judgment.kind}, ${where}`);
  if (values.show || verdict !== 'not suggested' || judgment.kind === 'typo')
    console.log(
      `${judgment.kind} ${judgment.edit ?? ''} ${verdict}: ${judgment.q}${judgment.meant ? ` (meant ${judgment.meant})` : ''}` +
        `${suggestion ? ` → ${suggestion.corrections.map(({ typed, meant }) => `${typed}→${meant}`).join(', ')} (${suggestion.total_items})` : ''}; ${total} found, first ${first ?? '-'}`,
    );
}
for (const [name, count] of [...tally].sort()) console.log(`${name}: ${count}`);
