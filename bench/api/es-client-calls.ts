// What one Elasticsearch call costs the API's client, against the stock client, side by side:
//   npx tsx bench/api/es-client-calls.ts [--size 100k] [--calls 4000] [--rounds 6] [--concurrency 8]
// Both clients run in this process against the local stack's catalogue of --size, in alternating
// rounds (which goes first alternates too); each round is --calls calls from --concurrency loops,
// and its cost is this process's CPU (user + system) divided by the calls. Three kinds: a get by
// id, a search of one word (Elasticsearch's request cache answers it after the first round, so the
// client's part is most of what is measured), and an mget of 20 ids.
import { parseArgs } from 'node:util';
import { Client } from '@elastic/elasticsearch';
import { loadConfig } from '../../src/config.js';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { datasetAlias } from './datasets.js';
import { parseSize } from './options.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100k' },
    calls: { type: 'string', default: '4000' },
    rounds: { type: 'string', default: '6' },
    concurrency: { type: 'string', default: '8' },
  },
});
const SIZE = parseSize(values.size);
const CALLS = Number(values.calls);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = Number(values.concurrency);
const index = datasetAlias(SIZE);
const WORDS = ['sky', 'night', 'blue', 'forest', 'city', 'ocean', 'mountain', 'sunset'];
const KINDS = ['get', 'search', 'mget'] as const;
type Kind = (typeof KINDS)[number];

const { elasticsearchUrl } = loadConfig();
const clients: Record<string, Client> = {
  stock: new Client({ node: elasticsearchUrl, maxRetries: 0, compression: false }),
  ours: createEsClient({ url: elasticsearchUrl, requestTimeoutMs: 10_000 }),
};

function call(es: Client, kind: Kind, n: number): Promise<unknown> {
  const id = (offset: number) => String(1 + ((n * 20 + offset) % Math.min(SIZE, 100_000)));
  switch (kind) {
    case 'get':
      return es.get({ index, id: id(0) });
    case 'search':
      return es.search({ index, size: 20, query: { match: { title: WORDS[n % WORDS.length]! } } });
    case 'mget':
      return es.mget({ index, ids: Array.from({ length: 20 }, (_, i) => id(i)) });
  }
}

/** Microseconds of this process's CPU per call over `calls` calls. */
async function round(es: Client, kind: Kind, calls: number): Promise<number> {
  const before = process.cpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < calls) await call(es, kind, next++);
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const names = Object.keys(clients);
console.log(`${CALLS} calls a round, ${CONCURRENCY} concurrent, ${ROUNDS} rounds, ${index}; µs of CPU per call, per round`);
console.log("| kind | stock client | this API's client | stock / ours, medians |");
console.log('|---|---|---|--:|');
for (const kind of KINDS) {
  for (const name of names) await round(clients[name]!, kind, CALLS / 2);
  const costs: Record<string, number[]> = { stock: [], ours: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of r % 2 === 0 ? names : [...names].reverse()) costs[name]!.push(await round(clients[name]!, kind, CALLS));
  }
  const shown = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  console.log(
    `| ${kind} | ${shown(costs['stock']!)} | ${shown(costs['ours']!)} | ${(median(costs['stock']!) / median(costs['ours']!)).toFixed(2)} |`,
  );
}
await Promise.all(Object.values(clients).map((es) => es.close()));
