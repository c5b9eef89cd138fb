import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import type { Client } from '@elastic/elasticsearch';
import type { Target } from './measure.js';

export interface ColdLatency {
  samples: number;
  p50Ms: number;
  p90Ms: number;
  maxMs: number;
}

interface Line {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

function readLines(file: string, key: string | undefined): Line[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((text) => {
      const [method = 'GET', path = '/', headerText = '', body = ''] = text.split('\t');
      const headers: Record<string, string> = {};
      for (const pair of headerText.split('|').filter(Boolean)) {
        const at = pair.indexOf(':');
        headers[pair.slice(0, at)] = pair.slice(at + 1).trim();
      }
      if (key) headers['authorization'] = `Bearer ${key}`;
      if (body) headers['content-length'] = String(Buffer.byteLength(body));
      return { method, path, headers, body };
    });
}

function send(agent: Agent, url: URL, line: Line): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: url.hostname, port: url.port, method: line.method, path: line.path, headers: line.headers, agent }, (res) => {
      res.resume();
      res.on('end', () => ((res.statusCode ?? 500) < 400 ? resolve(performance.now() - started) : reject(new Error(`${res.statusCode} ${line.path}`))));
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
  const lines = readLines(file, target.key);
  const url = new URL(target.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  try {
    await send(agent, url, lines[0] as Line);
    for (let i = 0; i < samples; i++) {
      await es.indices.clearCache({ index: alias, request: true, query: true });
      times.push(await send(agent, url, lines[i % lines.length] as Line));
    }
  } finally {
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  return { samples, p50Ms: at(times, 50), p90Ms: at(times, 90), maxMs: times.at(-1) ?? 0 };
}
