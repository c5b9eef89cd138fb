// One account pipelines thousands of requests on a few connections; how long does another wait?
//   npx tsx bench/security/pipelined-flood.ts [--size 100k] [--sockets 4] [--depth 2000] [--seconds 10] [--limits 0,32]
// For each value of MAX_PIPELINED_PER_CONNECTION in --limits, a fresh API gets: a quiet phase
// (another account asks a wallpaper by id every 20 ms, and /healthz beside it), then the flood:
// --sockets connections, each writing --depth gets at once, reading every answer, and again, for
// --seconds. The flooding account's quota is lifted (RATE_LIMIT_TIERS) so that its requests are
// real work, not quota refusals. Prints the other account's latency, quiet and under the flood,
// /healthz's, and what the flood got back.
import { createConnection } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { withBenchStack } from '../api/bench-stack.js';
import { parseSize } from '../api/options.js';
import { createBenchKeys, startApi } from '../api/processes.js';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100k' },
    sockets: { type: 'string', default: '4' },
    depth: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '10' },
    limits: { type: 'string', default: '0,32' },
  },
});
const SOCKETS = Number(values.sockets);
const DEPTH = Number(values.depth);

async function timed(url: string, key?: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, key ? { headers: { Authorization: `Bearer ${key}` } } : {});
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return performance.now() - started;
}

const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${at(sorted, 50).toFixed(1)} ms, p99 ${at(sorted, 99).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms (${sorted.length})`;
};

/** The other account's gets and /healthz, one of each every 20 ms, until `until` says stop. */
async function neighbour(api: string, key: string, until: () => boolean): Promise<{ gets: number[]; health: number[] }> {
  const gets: number[] = [];
  const health: number[] = [];
  for (let n = 0; !until(); n++) {
    const [get, healthz] = await Promise.all([timed(`${api}/v1/wallpapers/${1 + (n % 5000)}`, key), timed(`${api}/healthz`)]);
    gets.push(get);
    health.push(healthz);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { gets, health };
}

/** One connection: `DEPTH` gets written at once, every answer read, again until `end`. Counts answers by status. */
function floodConnection(api: string, key: string, end: number, statuses: Map<number, number>): Promise<void> {
  const { hostname, port } = new URL(api);
  return new Promise((done, fail) => {
    const socket = createConnection(Number(port), hostname);
    let pending = '';
    let answered = 0;
    let n = 0;
    const burst = () => {
      answered = 0;
      const requests: string[] = [];
      for (let i = 0; i < DEPTH; i++, n++) {
        requests.push(`GET /v1/wallpapers/${1 + (n % 90_000)} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\n\r\n`);
      }
      socket.write(requests.join(''));
    };
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      // Status lines only: the bodies are JSON, which never holds one.
      let at: number;
      while ((at = pending.indexOf('HTTP/1.1 ')) >= 0 && pending.length >= at + 12) {
        const status = Number(pending.slice(at + 9, at + 12));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        answered++;
        pending = pending.slice(at + 12);
      }
      if (answered === DEPTH) {
        if (Date.now() < end) burst();
        else {
          socket.destroy();
          done();
        }
      }
    });
    socket.on('error', fail);
    socket.on('connect', burst);
  });
}

async function main(): Promise<void> {
  await withBenchStack('pipelined', parseSize(values.size), async ({ dir, alias, redis }) => {
    const [flooder, other, probe] = (await createBenchKeys(redis.url, join(dir, 'keys.txt'), 3)) as [string, string, string];
    const seconds = Number(values.seconds);
    for (const limit of values.limits.split(',').map(Number)) {
      const api = await startApi({
        cwd: ROOT,
        alias,
        redisUrl: redis.url,
        key: probe,
        env: { MAX_PIPELINED_PER_CONNECTION: String(limit), RATE_LIMIT_TIERS: 'free:1000,premium:9999999' },
      });
      try {
        const quietEnd = Date.now() + 3000;
        const quiet = await neighbour(api.url, other, () => Date.now() > quietEnd);
        const floodEnd = Date.now() + seconds * 1000;
        const statuses = new Map<number, number>();
        const flood = Promise.all(Array.from({ length: SOCKETS }, () => floodConnection(api.url, flooder, floodEnd, statuses)));
        const loaded = await neighbour(api.url, other, () => Date.now() > floodEnd);
        await flood;
        const got = [...statuses].map(([status, count]) => `${count} × ${status}`).join(', ');
        console.log(`MAX_PIPELINED_PER_CONNECTION=${limit}:`);
        console.log(`  another account's gets, quiet:        ${summary(quiet.gets)}`);
        console.log(`  another account's gets, under flood:  ${summary(loaded.gets)}`);
        console.log(`  /healthz, quiet / under flood:         ${summary(quiet.health)} / ${summary(loaded.health)}`);
        console.log(`  the flood (${SOCKETS} × ${DEPTH} pipelined): ${got}, ${((statuses.get(200) ?? 0) / seconds).toFixed(0)}/s answered 200`);
      } finally {
        await api.stop();
      }
    }
  });
}

await main();
process.exit(0);
