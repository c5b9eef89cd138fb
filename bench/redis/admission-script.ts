// Server-side cost of the admission script, current version against an earlier one, side by side:
//   npx tsx bench/redis/admission-script.ts [--compare <git ref>] [--compare-kind buckets|log] [--rounds N] [--calls N]
// --compare-kind log: the earlier version is a sliding log too (from issue 10 on), with its own
// authentication fragment and three keys; buckets (the default, 7c50f20) takes a bucket count.
// Runs on a private redis-server. Many accounts, each paced within its tier's limit over a short
// window, so logs fill up and requests keep leaving the window, as they would over an hour.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { AUTHENTICATE_LUA } from '../../src/access/store/authenticate-lua.js';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { type KeyLocation, locateKey } from '../../src/access/store/authenticate-lua.js';
import { redisKeys } from '../../src/access/store/redis-keys.js';
import { SLIDING_WINDOW_LUA, USAGE_CAP } from '../../src/access/store/sliding-window-lua.js';
import { freePort } from '../../test/support/free-port.js';
import { median } from '../api/ab-stats.js';

const { values } = parseArgs({
  options: {
    compare: { type: 'string', default: '7c50f20' },
    'compare-kind': { type: 'string', default: 'buckets' },
    rounds: { type: 'string', default: '4' },
    calls: { type: 'string', default: '40000' },
  },
});
const ROUNDS = Number(values.rounds);
const CALLS = Number(values.calls);
// A run lasts a few seconds: a 2 s window keeps requests leaving it all the time. Many light
// accounts (a short log each) and a few heavy ones (about a thousand entries each).
const WINDOW_MS = 2000;
const LIMIT = 2000;
const SCENARIOS = [400, 20];

interface Variant {
  name: string;
  /** The whole script: authentication and rate limit. */
  lua: string;
  /** The script's keys for one API key. */
  keysOf: (at: KeyLocation) => string[];
  /** Arguments after the three keys. */
  args: (string | number)[];
  counterKey: (accountId: string) => string;
}

// Where the script lived: src/access/ since the layers were cut, src/rate-limit/ before.
const SCRIPT_PATHS = ['src/access/sliding-window-lua.ts', 'src/rate-limit/sliding-window-lua.ts'];

function earlierAuthenticate(ref: string): string {
  try {
    const source = execFileSync('git', ['show', `${ref}:src/access/authenticate-lua.ts`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return /AUTHENTICATE_LUA = `([\s\S]*?)`;/.exec(source)?.[1] ?? AUTHENTICATE_LUA;
  } catch {
    return AUTHENTICATE_LUA;
  }
}

function earlierScript(ref: string): string {
  const source = SCRIPT_PATHS.map((path) => {
    try {
      return execFileSync('git', ['show', `${ref}:${path}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      return null;
    }
  }).find((text) => text !== null);
  if (!source) throw new Error(`no admission script at ${ref} (looked in ${SCRIPT_PATHS.join(', ')})`);
  const match = /SLIDING_WINDOW_LUA = `([\s\S]*?)`;/.exec(source);
  if (!match) throw new Error(`no SLIDING_WINDOW_LUA in ${ref}`);
  // The usage cap's numbers were interpolated into the script text; they never run in this bench.
  return match[1]!.replace(/\$\{USAGE_CAP\.(\w+)\}/g, (_, name: 'reads' | 'windowMs') => String(USAGE_CAP[name]));
}

async function startRedis(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-redis-'));
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: 'ignore',
  });
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => 50 });
  probe.on('error', () => undefined);
  for (let i = 0; i < 100; i++) {
    try {
      await probe.connect();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  probe.disconnect();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function run(
  redis: Redis,
  variant: Variant,
  keys: { apiKey: string; accountId: string }[],
): Promise<{ usPerCall: number; allowed: number; memoryPerAccount: number }> {
  const sha = (await redis.script('LOAD', variant.lua)) as string;
  for (const { accountId } of keys) await redis.del(variant.counterKey(accountId));
  await redis.config('RESETSTAT');
  let allowed = 0;
  // Accounts take turns, so each one's requests are spread over the run like paced clients.
  const started = Date.now();
  const concurrency = 16;
  let next = 0;
  async function worker(): Promise<void> {
    while (next < CALLS) {
      const i = next++;
      const { apiKey } = keys[i % keys.length]!;
      const at = locateKey(apiKey)!;
      const scriptKeys = variant.keysOf(at);
      const reply = (await redis.evalsha(sha, scriptKeys.length, ...scriptKeys, ...variant.args)) as number[];
      if (reply[0] === 1) allowed++;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const stats = (await redis.info('commandstats')).split('\n').find((line) => line.startsWith('cmdstat_evalsha:')) ?? '';
  const usPerCall = Number(/usec_per_call=([\d.]+)/.exec(stats)?.[1] ?? NaN);
  let bytes = 0;
  for (const { accountId } of keys.slice(0, 50)) bytes += Number((await redis.call('MEMORY', 'USAGE', variant.counterKey(accountId))) ?? 0);
  process.stderr.write(`  ${variant.name}: ${usPerCall} µs/call, ${allowed}/${CALLS} allowed, ${Date.now() - started} ms\n`);
  return { usPerCall, allowed, memoryPerAccount: bytes / 50 };
}

async function scenario(redis: Redis, accounts: number): Promise<void> {
  {
    const store = createKeyStore(redis);
    const keys = [];
    for (let i = 0; i < accounts; i++) keys.push(await store.createKey({ tier: 'bench', account: `bench-${accounts}-${i}` }));
    const tiers = ['bench', LIMIT];
    const log = (id: string) => `wpc:{${id}}:rl:log`;
    const buckets = values['compare-kind'] === 'buckets';
    const variants: Variant[] = [
      {
        name: 'current',
        lua: AUTHENTICATE_LUA + SLIDING_WINDOW_LUA,
        keysOf: (at) => [at.keyRecord, at.account, log(at.accountId), redisKeys.accountHours(at.accountId), redisKeys.keyUse(at.accountId, at.hash)],
        args: [WINDOW_MS, ...tiers],
        counterKey: log,
      },
      {
        name: `${values.compare} (${values['compare-kind']})`,
        lua: (buckets ? AUTHENTICATE_LUA : earlierAuthenticate(values.compare)) + earlierScript(values.compare),
        keysOf: (at) => [at.keyRecord, at.account, buckets ? `wpc:{${at.accountId}}:rl` : log(at.accountId)],
        args: buckets ? [WINDOW_MS, 60, ...tiers] : [WINDOW_MS, ...tiers],
        counterKey: buckets ? (id) => `wpc:{${id}}:rl` : log,
      },
    ];
    const results = new Map<string, number[]>(variants.map((v) => [v.name, []]));
    const memory = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      process.stderr.write(`round ${round + 1}\n`);
      for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
        const { usPerCall, memoryPerAccount } = await run(redis, variant, keys);
        results.get(variant.name)!.push(usPerCall);
        memory.set(variant.name, memoryPerAccount);
      }
    }
    const [current, earlier] = variants.map((v) => median(results.get(v.name)!));
    console.log(`| script | µs per EVALSHA (median of ${ROUNDS}) | runs | bytes per account (MEMORY USAGE) |`);
    console.log('|---|--:|---|--:|');
    for (const v of variants)
      console.log(
        `| ${v.name} | ${median(results.get(v.name)!).toFixed(2)} | ${results.get(v.name)!.join(', ')} | ${Math.round(memory.get(v.name)!)} |`,
      );
    console.log(
      `\ncurrent / earlier: ${(current! / earlier!).toFixed(2)} (${accounts} accounts, ${CALLS} calls a run, window ${WINDOW_MS / 1000} s, limit ${LIMIT})\n`,
    );
  }
}

async function main(): Promise<void> {
  const server = await startRedis();
  const redis = new Redis(server.url);
  try {
    for (const accounts of SCENARIOS) await scenario(redis, accounts);
  } finally {
    redis.disconnect();
    server.stop();
  }
}

await main();
