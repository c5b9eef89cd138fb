import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { silentLogger } from '../../src/logger.js';
import { createWallpaperRepository } from '../../src/wallpapers/repository.js';
import { type RequestSpec, specKey } from './workloads.js';

/** One HTTP request as the API's Elasticsearch client puts it on the wire. */
export interface EsWireRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

// Headers that change what Elasticsearch does; user agent and client metadata do not.
const KEPT_HEADERS = ['content-type', 'accept'];

const EMPTY_SEARCH = JSON.stringify({ took: 0, timed_out: false, hits: { total: { value: 0, relation: 'eq' }, hits: [] } });
const MISSING_DOC = JSON.stringify({ _index: 'x', _id: '0', found: false });

/**
 * Runs each spec through the project's repository with a client pointed at a recorder, so the
 * direct-Elasticsearch baseline replays byte for byte what the API sends (path, query string,
 * body), whatever the query builders and client settings are at the time.
 */
export async function captureEsRequests(alias: string, specs: Iterable<RequestSpec>): Promise<Map<string, EsWireRequest>> {
  const seen: { last: EsWireRequest | null } = { last: null };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      seen.last = { method: req.method ?? 'GET', path: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') };
      const isGet = req.url?.includes('/_doc/') ?? false;
      res.writeHead(isGet ? 404 : 200, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' });
      res.end(isGet ? MISSING_DOC : EMPTY_SEARCH);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const es = createEsClient({ url: `http://127.0.0.1:${port}`, requestTimeoutMs: 5000 });
  const repository = createWallpaperRepository(es, alias, silentLogger);
  const captured = new Map<string, EsWireRequest>();
  try {
    for (const spec of specs) {
      const key = specKey(spec);
      if (captured.has(key)) continue;
      seen.last = null;
      if (spec.kind === 'get') await repository.getById(spec.id);
      else if (spec.kind === 'list') await repository.list(spec.params);
      else await repository.search(spec.params);
      const request = seen.last as EsWireRequest | null;
      if (!request) throw new Error(`no Elasticsearch request captured for ${key}`);
      captured.set(key, request);
    }
  } finally {
    await es.close();
    server.close();
  }
  return captured;
}
