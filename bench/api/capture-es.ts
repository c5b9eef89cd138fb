import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { buildIdsRequest, buildListRequest } from '../../src/wallpapers/store/build-queries.js';
import { buildGetRequest, buildSearchRequest, buildSuggestRequest } from './direct-requests.js';
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
const NO_DOCS = JSON.stringify({ docs: [] });

/**
 * Sends each spec's query through the project's client and query builders, pointed at a
 * recorder, one request per spec: the direct-Elasticsearch baseline replays byte for byte what a
 * client asking Elasticsearch itself would send (path, query string, body, the same queries the
 * API runs). The API batches these into _mget/_msearch under load; the baseline does not.
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
      const isMget = req.url?.includes('/_mget') ?? false;
      res.writeHead(isGet ? 404 : 200, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' });
      res.end(isGet ? MISSING_DOC : isMget ? NO_DOCS : EMPTY_SEARCH);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const es = createEsClient({ url: `http://127.0.0.1:${port}`, requestTimeoutMs: 5000 });
  const captured = new Map<string, EsWireRequest>();
  try {
    for (const spec of specs) {
      const key = specKey(spec);
      if (captured.has(key)) continue;
      seen.last = null;
      if (spec.kind === 'get') await es.get(buildGetRequest(alias, spec.id), { ignore: [404] });
      else if (spec.kind === 'ids') await es.mget(buildIdsRequest(alias, spec.ids));
      else if (spec.kind === 'list') await es.search(buildListRequest(alias, spec.params));
      else if (spec.kind === 'suggest') await es.search(buildSuggestRequest(alias, spec.params));
      else await es.search(buildSearchRequest(alias, spec.params));
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
