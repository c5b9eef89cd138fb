// Kinds of search timed on two builds side by side, taking turns, each request distinct (a fresh
// exclude_ids, so neither the response cache nor Elasticsearch's request cache answers it); prints
// a Markdown table of p50 and p90 per kind. Both APIs serve the same catalogue with RESPONSE_CACHE_MB=0.
//   BEFORE_URL=http://127.0.0.1:3006 NOW_URL=http://127.0.0.1:3005 API_KEY=… npx tsx bench/search/<script>.ts [rounds]

/** A search no cache has answered: a fresh exclude_ids each time. */
const searchPath = (q: string) => `/v1/search?per_page=20&q=${encodeURIComponent(q)}&exclude_ids=${1 + Math.floor(Math.random() * 10_000)}`;

async function timed(url: string, key: string, path: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}${path}`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return performance.now() - started;
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!;

/**
 * Times every kind's queries on the build before and the build now, `rounds` times each, and prints
 * the table. `pathOf` makes a query a request (a search by default).
 */
/** Plain searches timed beside the kinds a change is about, as the control. */
export const PLAIN_SEARCHES = ['mountain sunset', 'neon city', 'calm ocean', 'dark forest', 'red car', 'snowy cabin', 'space nebula', 'lighthouse'];

export async function compareBuilds(
  kinds: Record<string, string[]>,
  rounds = Number(process.argv[2] ?? 2),
  pathOf: (q: string) => string = searchPath,
): Promise<void> {
  const key = process.env['API_KEY']!;
  const builds = [
    { name: 'before', url: process.env['BEFORE_URL']! },
    { name: 'now', url: process.env['NOW_URL']! },
  ];
  console.log('| kind | requests per build | before p50 / p90 ms | now p50 / p90 ms | now / before, p50 |');
  console.log('|---|--:|--:|--:|--:|');
  for (const [kind, queries] of Object.entries(kinds)) {
    const times: Record<string, number[]> = { before: [], now: [] };
    for (let round = 0; round < rounds; round++) {
      for (const [i, q] of queries.entries()) {
        for (const build of i % 2 === round % 2 ? builds : [...builds].reverse()) times[build.name]!.push(await timed(build.url, key, pathOf(q)));
      }
    }
    const [b, n] = [times['before']!, times['now']!];
    console.log(
      `| ${kind} | ${b.length} | ${quantile(b, 0.5).toFixed(1)} / ${quantile(b, 0.9).toFixed(1)} | ${quantile(n, 0.5).toFixed(1)} / ${quantile(n, 0.9).toFixed(1)} | ${(quantile(n, 0.5) / quantile(b, 0.5)).toFixed(2)} |`,
    );
  }
}
