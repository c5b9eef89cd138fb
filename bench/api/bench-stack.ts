import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { type Config, loadConfig } from '../../src/config.js';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { ensureDataset } from './datasets.js';
import { type Running, type RunningRedis, startRedis } from './processes.js';

export interface BenchStack {
  config: Config;
  es: Client;
  /** A folder of the run's own (keys, request files), removed at the end. */
  dir: string;
  /** The benchmark catalogue of the size asked for. */
  alias: string;
  /** A Redis of the run's own. */
  redis: RunningRedis;
  /** Stops `running` when the run ends, whatever happens, in the reverse order of tracking. */
  track: <T extends Running>(running: T) => T;
}

/**
 * What a one-off benchmark needs around its measurement: the catalogue of `size` wallpapers, a
 * Redis of its own and a scratch folder; everything it started is stopped and removed at the end.
 */
export async function withBenchStack<T>(name: string, size: number, run: (stack: BenchStack) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 300_000 });
  const dir = mkdtempSync(join(tmpdir(), `wallpaper-${name}-`));
  const started: Running[] = [];
  const track = <R extends Running>(running: R): R => {
    started.push(running);
    return running;
  };
  try {
    const alias = await ensureDataset(es, size, config.imageBaseUrl, console.log);
    const redis = track(await startRedis());
    return await run({ config, es, dir, alias, redis, track });
  } finally {
    for (const running of started.reverse()) await running.stop();
    rmSync(dir, { recursive: true, force: true });
    await es.close();
  }
}
