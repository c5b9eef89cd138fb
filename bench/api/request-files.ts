import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EsWireRequest } from './capture-es.js';
import type { RequestFiles } from './measure.js';
import { type Workload, apiPath, specKey } from './workloads.js';

function line(method: string, path: string, headers: Record<string, string>, body: string): string {
  const headerText = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('|');
  if (/[\t\n]/.test(path + headerText + body)) throw new Error(`request does not fit one line: ${path}`);
  return `${method}\t${path}\t${headerText}\t${body}`;
}

/** One request of a request file, ready to send with node:http. */
export interface RequestLine {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** Reads a request file back (the inverse of `line`). */
export function readRequestFile(file: string): RequestLine[] {
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
      if (body) headers['content-length'] = String(Buffer.byteLength(body));
      return { method, path, headers, body };
    });
}

/** API keys from a keys file (one per line), empty when there is none. */
export function readKeys(file: string | undefined): string[] {
  return file ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/** The line with the n-th key of `keys` (in turn) as its bearer token, or as it is without keys. */
export function withKey(line: RequestLine, keys: readonly string[], n: number): RequestLine {
  if (keys.length === 0) return line;
  return { ...line, headers: { ...line.headers, authorization: `Bearer ${keys[n % keys.length]}` } };
}

/** The workload as request files for replay.lua: API paths, and the same requests sent to Elasticsearch. */
/** The request files of a workload; `apiHeaders` go on every API request (e.g. the Accept-Encoding real clients send). */
export function writeRequestFiles(
  dir: string,
  name: string,
  workload: Workload,
  captured: Map<string, EsWireRequest>,
  apiHeaders: Record<string, string> = {},
): RequestFiles {
  const api = workload.map((spec) => line('GET', apiPath(spec), apiHeaders, ''));
  const es = workload.map((spec) => {
    const request = captured.get(specKey(spec));
    if (!request) throw new Error(`no captured request for ${specKey(spec)}`);
    return line(request.method, request.path, request.headers, request.body);
  });
  const esNoRequestCache = es.map((text) => text.replace(/([?&])request_cache=true/, '$1request_cache=false'));
  const files = { api: join(dir, `${name}.api.txt`), es: join(dir, `${name}.es.txt`), esNoRequestCache: join(dir, `${name}.es-no-rc.txt`) };
  writeFileSync(files.api, `${api.join('\n')}\n`);
  writeFileSync(files.es, `${es.join('\n')}\n`);
  writeFileSync(files.esNoRequestCache, `${esNoRequestCache.join('\n')}\n`);
  return files;
}
