// npx tsx bench/search/corrections.ts --url http://127.0.0.1:3000 --key KEY [--show]
// How a search that finds nothing as typed is read (meta.corrections, domain/with-corrections.ts),
// on bench/search/corrections.json: helper-87's 89 queries, written blind to the search code from
// the demo catalogue's generator alone. "real-word-typo": a real word typed for a catalogue word,
// judged as the word meant (`all`: patterns a relevant title matches). "nothing": a thing the
// catalogue does not hold, spelled as meant, often one edit from a catalogue word; the right
// answer is none. Counts the readings made, right or wrong, and precision@10 of the typos.
// Run it against the demo catalogue (`npm run up`).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { url: { type: 'string', default: 'http://127.0.0.1:3000' }, key: { type: 'string' }, show: { type: 'boolean', default: false } },
});
if (values.key === undefined) throw new Error('--key is required');

interface Judgment {
  kind: 'real-word-typo' | 'nothing';
  q: string;
  all: string[];
}
interface Correction {
  typed: string;
  meant: string;
}

const { queries } = JSON.parse(readFileSync(new URL('corrections.json', import.meta.url), 'utf8')) as { queries: Judgment[] };

async function answer(q: string) {
  const response = await fetch(`${values.url}/v1/search?per_page=10&q=${encodeURIComponent(q)}`, {
    headers: { authorization: `Bearer ${values.key}` },
  });
  if (response.status !== 200) throw new Error(`${q}: ${response.status} ${await response.text()}`);
  const { data, meta } = (await response.json()) as { data: { title: string }[]; meta: { total_items: number; corrections?: Correction[] } };
  return { total: meta.total_items, titles: data.map(({ title }) => title), corrections: meta.corrections };
}

const counts = { typos: 0, readRight: 0, readWrong: 0, typosEmpty: 0, precision: 0, nothing: 0, leftEmpty: 0, readAnyway: 0, foundAsTyped: 0 };
for (const judgment of queries) {
  const { total, titles, corrections } = await answer(judgment.q);
  const patterns = judgment.all.map((pattern) => new RegExp(pattern, 'i'));
  const said = corrections?.map(({ typed, meant }) => `${typed}→${meant}`).join(', ');
  if (judgment.kind === 'real-word-typo') {
    counts.typos++;
    counts.precision += titles.filter((title) => patterns.every((pattern) => pattern.test(title))).length / 10;
    if (total === 0) counts.typosEmpty++;
    if (corrections !== undefined) {
      // Right when the query as read says what the judgment looks for: "coral reef" for `coral reefs?`.
      const read = corrections.reduce((text, { typed, meant }) => text.replace(new RegExp(`\\b${typed}\\b`, 'i'), meant), judgment.q);
      const right = patterns.every((pattern) => pattern.test(read));
      counts[right ? 'readRight' : 'readWrong']++;
      if (values.show || !right) console.log(`typo ${right ? 'read' : 'MISREAD'}: ${judgment.q} (${said}) ${total}`);
    }
  } else {
    counts.nothing++;
    if (corrections !== undefined) {
      counts.readAnyway++;
      console.log(`nothing READ: ${judgment.q} (${said}) ${total}: ${titles.slice(0, 3).join('; ')}`);
    } else if (total === 0) counts.leftEmpty++;
    else counts.foundAsTyped++;
  }
}
console.log(
  `real-word typos: ${counts.typos}, read as meant ${counts.readRight}, misread ${counts.readWrong}, finding nothing ${counts.typosEmpty}, mean precision@10 ${(counts.precision / counts.typos).toFixed(3)}`,
);
console.log(
  `things the catalogue lacks: ${counts.nothing}, left empty ${counts.leftEmpty}, read as another word ${counts.readAnyway}, found something as typed ${counts.foundAsTyped}`,
);
