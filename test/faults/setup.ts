import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { parseApiKey } from '../../src/access/api-key.js';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { rateLimitKey } from '../../src/access/store/redis-keys.js';
import { createRedis } from '../../src/infra/redis.js';
import { ES_URL, REDIS_URL, ROOT, esGet, masterOf, stack, waitForCluster } from './topology.js';

const exec = promisify(execFile);

export const ALIAS = 'faults-wallpapers';
export const TIERS = 'free:1000,premium:10000,faults:100';
/** What every API process of the fault suite and the chaos soak runs with. */
export const API_ENV = {
  INDEX_ALIAS: ALIAS,
  RATE_LIMIT_TIERS: TIERS,
  CURSOR_SECRET: 'faults-suite-cursor-secret-0123456789abcdef',
  SHUTDOWN_DRAIN_MS: '1000',
  RESPONSE_CACHE_MB: '0',
};
export const CLI_ENV = { ...process.env, ELASTICSEARCH_URL: ES_URL, REDIS_URL, INDEX_ALIAS: ALIAS, RATE_LIMIT_TIERS: TIERS };

const DOCS = 5000;

/** How many wallpapers the alias holds, or null when it holds none (or cannot be read). */
async function catalogueSize(): Promise<number | null> {
  return esGet<{ count: number }>(`/${ALIAS}/_count`).then(
    ({ count }) => count,
    () => null,
  );
}

/**
 * Starts the cluster topology unless it runs, loads 5,000 wallpapers unless the alias holds them,
 * and builds the API. Returns whether the topology was running already: a run that started it
 * stops it again.
 */
export async function prepareTopology(say: (line: string) => void): Promise<boolean> {
  const wasRunning = await fetch('http://127.0.0.1:9201/_cluster/health', { signal: AbortSignal.timeout(2000) }).then(
    (r) => r.ok,
    () => false,
  );
  say('starting the topology (3 Elasticsearch nodes, Redis Cluster 3+3)');
  await stack('start', '--es-nodes', '3', '--redis-cluster');
  await waitForCluster('green', 3);
  // The fault suite ends with the catalogue it loaded live again (its case d's import is rolled
  // back), and the soak after it in npm test reads the same: loading it again had cost 17 s of two
  // busy cores. Any other catalogue behind the alias is replaced.
  if ((await catalogueSize()) === DOCS) say(`the alias holds ${DOCS.toLocaleString('en')} wallpapers: kept`);
  else {
    say(`loading ${DOCS.toLocaleString('en')} wallpapers`);
    await exec(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--count', String(DOCS), '--seed', '11'], {
      cwd: ROOT,
      env: CLI_ENV,
      timeout: 300_000,
    });
  }
  // npm test builds dist/ once for the fuzz, the fault suite and the soak, and says so.
  if (process.env['SKIP_BUILD'] !== '1') await exec('npm', ['run', '--silent', 'build'], { cwd: ROOT, timeout: 300_000 });
  return wasRunning;
}

/** Keys on the topology's Redis Cluster. */
export function faultKeys() {
  const redis = createRedis({ url: REDIS_URL, commandTimeoutMs: 5000 });
  redis.on('error', () => undefined);
  const keyStore = createKeyStore(redis);
  // Commands are not queued before the cluster is connected (createRedis).
  const ready = new Promise((resolve) => redis.once('ready', resolve));
  return {
    keysOn: async (tier: string, count: number, prefix: string): Promise<string[]> => {
      await ready;
      const keys: string[] = [];
      for (let i = 0; i < count; i++) keys.push((await keyStore.createKey({ tier, account: `${prefix}-${Date.now()}-${i}` })).apiKey);
      return keys;
    },
    /** A key of `tier` whose account's counters live on the given Redis master. */
    keyOnMaster: async (tier: string, master: number): Promise<string> => {
      await ready;
      for (let i = 0; i < 200; i++) {
        const { apiKey } = await keyStore.createKey({ tier, account: `on-${master}-${Date.now()}-${i}` });
        if ((await masterOf(rateLimitKey(parseApiKey(apiKey)!.accountId))) === master) return apiKey;
      }
      throw new Error(`no account landed on master ${master}`);
    },
    close: () => redis.disconnect(),
  };
}

/**
 * Admitted is what the quota let through: a 200, or an error from Elasticsearch after admission
 * (a request is charged when admitted, whatever the catalogue then answers). Not admitted: 429,
 * the access layer's own 503 (Redis unknown and no fallback), no answer.
 */
export const admittedOutcome = (o: { status: number; message?: string }) =>
  o.status !== 0 && o.status !== 429 && !(o.status === 503 && o.message?.startsWith('Authentication'));
