// An API request's latency while sign-ins hash passwords, against the same request with no burst.
//
//   npx tsx bench/security/hash-burst.ts [--alias wallpapers] [--seconds 10] [--compare <git ref>]
//
// The request is a gzip GET /v1/wallpapers?per_page=100 (compression runs on libuv's thread pool,
// as scrypt does), asked one after another from one key. The burst is 50 sign-ins at once for
// unknown emails, each from its own client address (one trusted proxy hop), again and again while
// the requests are measured. With --compare, the build at that ref is measured the same way after
// this one.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { createRedis } from '../../src/infra/redis.js';
import { type Running, startApi } from '../api/processes.js';
import { buildCompareTree } from '../api/compare-tree.js';

const { values } = parseArgs({
  options: {
    alias: { type: 'string', default: 'wallpapers' },
    seconds: { type: 'string', default: '10' },
    compare: { type: 'string' },
    burst: { type: 'string', default: '50' },
  },
});
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(values.seconds);
const BURST = Number(values.burst);

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
let client = 0;
const nextAddress = () => {
  client++;
  return `100.${64 + ((client >> 16) & 63)}.${(client >> 8) & 255}.${client & 255}`;
};

async function signIn(api: Running): Promise<number> {
  const address = nextAddress();
  const email = `nobody-${address}@example.com`;
  const form = await fetch(`${api.url}/portal/sign-in`, { headers: { 'X-Forwarded-For': address } });
  const cookie = form.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = /name="csrf" value="([^"]*)"/.exec(await form.text())?.[1] ?? '';
  const res = await fetch(`${api.url}/portal/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'X-Forwarded-For': address, Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf, email, password: 'not a registered password' }).toString(),
  });
  await res.arrayBuffer();
  return res.status;
}

async function timedRequests(api: Running, key: string, seconds: number): Promise<number[]> {
  const ms: number[] = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const started = performance.now();
    const res = await fetch(`${api.url}/v1/wallpapers?per_page=100`, { headers: { Authorization: `Bearer ${key}`, 'Accept-Encoding': 'gzip' } });
    await res.arrayBuffer();
    ms.push(performance.now() - started);
  }
  return ms;
}

async function measure(name: string, api: Running, key: string) {
  for (let i = 0; i < 50; i++) await timedRequests(api, key, 0.02);
  const quiet = await timedRequests(api, key, SECONDS);
  let bursting = true;
  const statuses = new Map<number, number>();
  const bursts = (async () => {
    while (bursting) {
      for (const status of await Promise.all(Array.from({ length: BURST }, () => signIn(api)))) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  })();
  const during = await timedRequests(api, key, SECONDS);
  bursting = false;
  await bursts;
  const line = (label: string, xs: number[]) =>
    `${label}: p50 ${percentile(xs, 50).toFixed(1)} ms, p99 ${percentile(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (${xs.length})`;
  console.log(`\n## ${name}\n`);
  console.log(`- ${line('no burst', quiet)}`);
  console.log(`- ${line(`bursts of ${BURST} sign-ins`, during)}`);
  console.log(`- p99 during / without: ${(percentile(during, 99) / percentile(quiet, 99)).toFixed(2)}×`);
  console.log(`- sign-in answers during the bursts: ${[...statuses].map(([s, n]) => `${n}× ${s}`).join(', ')}`);
}

async function main() {
  const redis = createRedis({ url: REDIS_URL, commandTimeoutMs: 5000 });
  await new Promise((resolve) => redis.once('ready', resolve));
  const key = (await createKeyStore(redis).createKey({ tier: 'premium', account: 'hash-burst' })).apiKey;
  redis.disconnect();
  // One trusted hop, so every sign-in is its own client; throttles count per address, not in the way.
  const env = { RESPONSE_CACHE_MB: '0', TRUST_PROXY_HOPS: '1', RATE_LIMIT_TIERS: 'free:1000,premium:9999999' };
  const trees: [string, string][] = [['this build', process.cwd()]];
  if (values.compare) {
    const tree = join(process.cwd(), 'bench/tmp/hash-burst-compare');
    buildCompareTree(process.cwd(), values.compare, tree);
    trees.push([`build ${values.compare}`, tree]);
  }
  for (const [name, cwd] of trees) {
    const api = await startApi({ cwd, alias: values.alias, redisUrl: REDIS_URL, key, env });
    try {
      await measure(name, api, key);
    } finally {
      await api.stop();
    }
  }
}

await main();
