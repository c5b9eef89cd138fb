// npx tsx bench/search/corrections.ts --url http://127.0.0.1:3000 --key KEY [--show]
// What a search that finds nothing suggests (meta.did_you_mean, domain/with-suggestion.ts), on
// bench/search/corrections.json: helper-87's 89 queries, written blind to the search code from the
// demo catalogue's generator alone ("real-word-typo": a real word typed for a catalogue word, judged
// as the word meant, `all` the patterns a relevant title matches; "nothing": a thing the catalogue
// does not hold, spelled as meant, often one edit from a catalogue word, where no reading is right),
// and helper-88's sweep of 110 real words in six settings each, whose suggestions are listed for
// reading. Run it against the demo catalogue (`npm run up`).
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
interface Suggestion {
  corrections: { typed: string; meant: string }[];
  total_items: number;
}

const { queries, sweep } = JSON.parse(readFileSync(new URL('corrections.json', import.meta.url), 'utf8')) as {
  queries: Judgment[];
  sweep: { words: string[]; settings: string[] };
};

async function answer(q: string) {
  const response = await fetch(`${values.url}/v1/search?per_page=10&q=${encodeURIComponent(q)}`, {
    headers: { authorization: `Bearer ${values.key}` },
  });
  if (response.status !== 200) throw new Error(`${q}: ${response.status} ${await response.text()}`);
  const { meta } = (await response.json()) as { meta: { total_items: number; did_you_mean?: Suggestion } };
  return { total: meta.total_items, suggestion: meta.did_you_mean };
}

const read = (q: string, { corrections }: Suggestion) =>
  corrections.reduce((text, { typed, meant }) => text.replace(new RegExp(`\\b${typed}\\b`, 'i'), meant), q);

const counts = {
  typos: 0,
  typosEmpty: 0,
  right: 0,
  wrong: 0,
  typosFound: 0,
  foundRight: 0,
  foundWrong: 0,
  nothing: 0,
  nothingEmpty: 0,
  suggested: 0,
  nothingFound: 0,
  foundSuggested: 0,
};
for (const judgment of queries) {
  const { total, suggestion } = await answer(judgment.q);
  const found = total > 0;
  if (judgment.kind === 'real-word-typo') {
    counts.typos++;
    counts[found ? 'typosFound' : 'typosEmpty']++;
    if (suggestion === undefined) continue;
    // Right when the query as suggested says what the judgment looks for: "coral reef" for `coral reefs?`.
    const right = judgment.all.every((pattern) => new RegExp(pattern, 'i').test(read(judgment.q, suggestion)));
    counts[found ? (right ? 'foundRight' : 'foundWrong') : right ? 'right' : 'wrong']++;
    if (values.show || !right)
      console.log(
        `typo ${right ? 'suggested' : 'MISREAD'}${found ? ` (finding ${total})` : ''}: ${judgment.q} → ${read(judgment.q, suggestion)} (${suggestion.total_items})`,
      );
  } else {
    counts.nothing++;
    counts[found ? 'nothingFound' : 'nothingEmpty']++;
    if (suggestion === undefined) continue;
    counts[found ? 'foundSuggested' : 'suggested']++;
    console.log(
      `nothing, suggested${found ? ` (finding ${total})` : ''}: ${judgment.q} → ${read(judgment.q, suggestion)} (${suggestion.total_items})`,
    );
  }
}
console.log(
  `real-word typos: ${counts.typos}, finding nothing ${counts.typosEmpty}, of which suggested as meant ${counts.right}, suggested otherwise ${counts.wrong}`,
);
console.log(
  `real-word typos finding something: ${counts.typosFound}, of which suggested as meant ${counts.foundRight}, suggested otherwise ${counts.foundWrong}`,
);
console.log(
  `things the catalogue lacks: ${counts.nothing}, finding nothing ${counts.nothingEmpty}, of which given a suggestion ${counts.suggested}; finding something ${counts.nothingFound}, of which given a suggestion ${counts.foundSuggested}`,
);

const swept = { empty: [] as string[], found: [] as string[] };
let empty = 0;
for (const word of sweep.words)
  for (const setting of sweep.settings) {
    const q = `${word} ${setting}`;
    const { total, suggestion } = await answer(q);
    if (total === 0) empty++;
    if (suggestion !== undefined)
      swept[total === 0 ? 'empty' : 'found'].push(`${q} → ${read(q, suggestion)} (${suggestion.total_items})${total > 0 ? ` finding ${total}` : ''}`);
  }
const all = sweep.words.length * sweep.settings.length;
console.log(`sweep: ${all} searches, ${empty} finding nothing, ${swept.empty.length} of them given a suggestion:`);
for (const line of swept.empty) console.log(`  ${line}`);
console.log(`sweep: ${all - empty} finding something, ${swept.found.length} of them given a suggestion:`);
for (const line of swept.found) console.log(`  ${line}`);
