import { Agent, request } from 'node:http';
import type { Client } from '@elastic/elasticsearch';
import type { Target } from './measure.js';
import { type RequestLine, readKeys, readRequestFile, withKey } from './request-files.js';

export interface ColdLatency {
  samples: number;
  p50Ms: number;
  p90Ms: number;
  maxMs: number;
}

function send(agent: Agent, url: URL, line: RequestLine): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: url.hostname, port: url.port, method: line.method, path: line.path, headers: line.headers, agent }, (res) => {
      res.resume();
      res.on('end', () =>
        (res.statusCode ?? 500) < 400 ? resolve(performance.now() - started) : reject(new Error(`${res.statusCode} ${line.path}`)),
      );
    });
    req.on('error', reject);
    req.end(line.body || undefined);
  });
}

const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/**
 * What a request costs when nothing is cached: the shard request cache and the query cache
 * are emptied before each of `samples` sequential requests, which a wrk run cannot do.
 */
export async function coldLatency(es: Client, alias: string, target: Target, file: string, samples: number): Promise<ColdLatency> {
  const keys = readKeys(target.keysFile);
  const lines = readRequestFile(file).map((line, i) => withKey(line, keys, i));
  const url = new URL(target.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  try {
    await send(agent, url, lines[0] as RequestLine);
    for (let i = 0; i < samples; i++) {
      await es.indices.clearCache({ index: alias, request: true, query: true });
      times.push(await send(agent, url, lines[i % lines.length] as RequestLine));
    }
  } finally {
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  return { samples, p50Ms: at(times, 50), p90Ms: at(times, 90), maxMs: times.at(-1) ?? 0 };
}
