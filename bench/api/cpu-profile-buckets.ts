// Where a V8 CPU profile (.cpuprofile, from `node --cpu-prof`) spent its time, in buckets a
// reader of the API recognises: HTTP parsing, Koa, the admission round trip, the Elasticsearch
// client, our query building, serialisation, ETag, compression, metrics.
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  parent?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface BucketShare {
  bucket: string;
  ms: number;
  /** Of the profile's busy time (idle excluded). */
  share: number;
}

export interface ProfileSummary {
  busyMs: number;
  buckets: BucketShare[];
  /** Time in V8's JSON and the hash functions, whoever called them (also counted in `buckets`). */
  builtins: BucketShare[];
}

// Our compiled code (dist/ mirrors src/), by file: the first rule that matches names it.
const OURS: [RegExp, string][] = [
  [/\/dist\/http\/compression\.js$/, 'compression (ours + zlib)'],
  [/\/dist\/http\/conditional-get\.js$/, 'ETag and conditional GET'],
  [/\/dist\/http\/access-log\.js$/, 'access log'],
  [/\/dist\/infra\/(metrics|es-metrics)\.js$/, 'metrics'],
  [/\/dist\/infra\/logger\.js$/, 'access log'],
  [/\/dist\/http\//, 'middleware (ours)'],
  [/\/dist\/access\//, 'authentication and admission (ours)'],
  [
    /\/dist\/infra\/(hedged-reads|es-nodes|natural-batcher|circuit-breaker|buffered-connection|shared-result|work-budget|latency-deadline|elasticsearch|es-errors)\.js$/,
    'Elasticsearch call plumbing (ours)',
  ],
  [/\/dist\/infra\/redis\.js$/, 'Redis client (ioredis)'],
  [/\/dist\/wallpapers\/store\/cached-repository\.js$/, 'response cache (ours)'],
  [/\/dist\/infra\/byte-budget-lru\.js$/, 'response cache (ours)'],
  [/\/dist\/wallpapers\/store\//, 'query building and hit mapping (ours)'],
  [/\/dist\/wallpapers\//, 'use cases and envelopes (ours)'],
  [/\/dist\/openapi\//, 'validation (ours + ajv)'],
  [/\/dist\//, 'other (ours)'],
];

// Packages, by the first path segment after node_modules/.
const PACKAGES: [RegExp, string][] = [
  [/node_modules\/(@elastic|undici|hpagent|secure-json-parse)\//, 'Elasticsearch client and its JSON'],
  [/node_modules\/(ioredis|redis-parser|redis-errors|cluster-key-slot|denque|standard-as-callback)\//, 'Redis client (ioredis)'],
  [
    /node_modules\/(koa|koa-compose|@koa|koa-compress|koa-is-json|on-finished|statuses|http-errors|content-type|mime-types|vary|accepts|negotiator|type-is|cookies|fresh|encodeurl|escape-html|parseurl|delegates|only|depd|destroy|path-to-regexp)\//,
    'Koa and router',
  ],
  [/node_modules\/(ajv|ajv-formats|fast-uri|fast-deep-equal|json-schema-traverse)\//, 'validation (ours + ajv)'],
  [/node_modules\/(prom-client|tdigest|bintrees)\//, 'metrics'],
  [
    /node_modules\/(pino|pino-std-serializers|sonic-boom|thread-stream|fast-redact|quick-format-unescaped|atomic-sleep|on-exit-leak-free|safe-stable-stringify)\//,
    'access log',
  ],
  [/node_modules\//, 'other packages'],
];

const NODE_INTERNAL: [RegExp, string][] = [
  [/^node:(_http_|http$|internal\/http)/, 'HTTP parse and write (node)'],
  [/^node:(net|internal\/net|internal\/stream_base|stream|internal\/streams|internal\/stream)/, 'sockets and streams (node)'],
  [/^node:(zlib|internal\/zlib)/, 'compression (ours + zlib)'],
  [/^node:(internal\/crypto|crypto)/, 'hashing (node crypto)'],
  [/^node:internal\/(timers|process\/task_queues|async_hooks|process\/promises)/, 'timers, promises, async context (node)'],
  [/^node:/, 'other node internals'],
];

const SPECIAL: Record<string, string> = {
  '(garbage collector)': 'garbage collection',
  '(program)': 'V8 and native, no JS frame',
  '(idle)': 'idle',
  '(root)': 'V8 and native, no JS frame',
};

const BUILTIN_NAMES = new Set(['parse', 'stringify', 'digest', 'update', 'createHash', 'hash']);

function classifyUrl(url: string): string | undefined {
  if (url.includes('/node_modules/')) return PACKAGES.find(([re]) => re.test(url))?.[1];
  if (url.includes('/dist/')) return OURS.find(([re]) => re.test(url))?.[1];
  if (url.startsWith('node:')) return NODE_INTERNAL.find(([re]) => re.test(url))?.[1];
  return undefined;
}

/**
 * Each sample goes to the innermost frame on its stack that is ours or a package's; a stack of
 * node internals alone (the HTTP parser, a socket write) to the innermost internal module; a
 * sample with no JS frame to V8. So JSON.parse called by the Elasticsearch client counts as the
 * client's, and JSON.stringify called by Koa as Koa's; `builtins` counts them apart as well.
 */
export function summarizeProfile(file: string): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) byId.set(node.id, node);
  for (const node of profile.nodes) for (const child of node.children ?? []) byId.get(child)!.parent = node.id;

  const bucketOf = new Map<number, string>();
  const builtinOf = new Map<number, string | undefined>();
  const classify = (id: number): string => {
    const known = bucketOf.get(id);
    if (known !== undefined) return known;
    const leaf = byId.get(id)!;
    let bucket = SPECIAL[leaf.callFrame.functionName];
    let internal: string | undefined;
    for (
      let node: ProfileNode | undefined = leaf;
      bucket === undefined && node !== undefined;
      node = node.parent === undefined ? undefined : byId.get(node.parent)
    ) {
      const { url } = node.callFrame;
      if (url === '') continue;
      const found = classifyUrl(url);
      if (url.startsWith('node:')) internal ??= found;
      else if (found !== undefined) bucket = found;
    }
    bucket ??= internal ?? 'V8 and native, no JS frame';
    bucketOf.set(id, bucket);
    const { functionName, url } = leaf.callFrame;
    builtinOf.set(
      id,
      url === '' && BUILTIN_NAMES.has(functionName)
        ? `${functionName === 'parse' || functionName === 'stringify' ? 'JSON.' : ''}${functionName}`
        : undefined,
    );
    return bucket;
  };

  const totals = new Map<string, number>();
  const builtins = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const bucket = classify(id);
    totals.set(bucket, (totals.get(bucket) ?? 0) + us);
    const builtin = builtinOf.get(id);
    if (builtin !== undefined) builtins.set(builtin, (builtins.get(builtin) ?? 0) + us);
  });
  totals.delete('idle');
  const busyUs = [...totals.values()].reduce((a, b) => a + b, 0);
  const shares = (m: Map<string, number>) =>
    [...m].map(([bucket, us]) => ({ bucket, ms: us / 1000, share: us / busyUs })).sort((a, b) => b.ms - a.ms);
  return { busyMs: busyUs / 1000, buckets: shares(totals), builtins: shares(builtins) };
}
