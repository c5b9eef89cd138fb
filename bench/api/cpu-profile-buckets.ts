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
  /** Microseconds on the monotonic clock (process.hrtime's, on Linux). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface BucketShare {
  bucket: string;
  ms: number;
  /** Of the profile's busy time (idle excluded). */
  share: number;
}

/** The part of a profile to sum, in microseconds on the monotonic clock (`process.hrtime.bigint() / 1000n`). */
export interface ProfileWindow {
  fromUs: number;
  toUs: number;
}

export interface ProfileSummary {
  busyMs: number;
  buckets: BucketShare[];
  /** The functions with the most time of their own, as `name file:line`, their bucket in `bucket`. */
  functions: (BucketShare & { fn: string })[];
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
  [/node_modules\/(onnxruntime-node|onnxruntime-common|@huggingface)\//, 'sentence model (onnxruntime, tokenizer)'],
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

// Node's native stream writes: each tries the syscall at once, so they hold the kernel's send
// too. Whoever asked (Koa's response, ioredis's command, the Elasticsearch client's request), they
// are one bucket: the cost of a write, not of its caller.
const SOCKET_WRITES = new Set(['writeUtf8String', 'writev', 'writeLatin1String', 'writeAsciiString', 'writeUcs2String']);

const SPECIAL = new Map([
  ['(garbage collector)', 'garbage collection'],
  ['(program)', 'V8 and native, no JS frame'],
  ['(idle)', 'idle'],
  ['(root)', 'V8 and native, no JS frame'],
]);

function classifyUrl(url: string): string | undefined {
  if (url.includes('/node_modules/')) return PACKAGES.find(([re]) => re.test(url))?.[1];
  if (url.includes('/dist/')) return OURS.find(([re]) => re.test(url))?.[1];
  if (url.startsWith('node:')) return NODE_INTERNAL.find(([re]) => re.test(url))?.[1];
  return undefined;
}

/**
 * Each sample goes to the innermost frame on its stack that is ours or a package's; a stack of
 * node internals alone (the HTTP parser, a socket write) to the innermost internal module; a
 * sample with no JS frame to V8. V8 gives JSON.parse and JSON.stringify no frame of their own:
 * they count as their callers' (the Elasticsearch client's, Koa's).
 */
export function summarizeProfile(file: string, window?: ProfileWindow): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) byId.set(node.id, node);
  for (const node of profile.nodes) for (const child of node.children ?? []) byId.get(child)!.parent = node.id;

  const bucketOf = new Map<number, string>();
  const classify = (id: number): string => {
    const known = bucketOf.get(id);
    if (known !== undefined) return known;
    const leaf = byId.get(id)!;
    let bucket =
      SPECIAL.get(leaf.callFrame.functionName) ??
      (leaf.callFrame.url === '' && SOCKET_WRITES.has(leaf.callFrame.functionName) ? 'socket writes' : undefined);
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
    return bucket;
  };

  const totals = new Map<string, number>();
  const own = new Map<string, { bucket: string; us: number }>();
  // Each sample's time on the monotonic clock; it stands for the time until the next one.
  const at: number[] = [];
  profile.timeDeltas.reduce((t, delta, i) => (at[i] = t + delta), profile.startTime);
  const from = window?.fromUs ?? -Infinity;
  const to = window?.toUs ?? Infinity;
  profile.samples.forEach((id, i) => {
    if (at[i]! < from || at[i]! >= to) return;
    const us = profile.timeDeltas[i + 1] ?? 0;
    const bucket = classify(id);
    totals.set(bucket, (totals.get(bucket) ?? 0) + us);
    if (bucket === 'idle') return;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const fn = `${functionName || '(anonymous)'} ${url.replace(/^.*\/node_modules\//, '').replace(/^.*\/dist\//, 'dist/')}:${lineNumber + 1}`;
    const key = `${fn}\u0000${bucket}`;
    const entry = own.get(key) ?? { bucket, us: 0 };
    entry.us += us;
    own.set(key, entry);
  });
  totals.delete('idle');
  const busyUs = [...totals.values()].reduce((a, b) => a + b, 0);
  const buckets = [...totals].map(([bucket, us]) => ({ bucket, ms: us / 1000, share: us / busyUs })).sort((a, b) => b.ms - a.ms);
  const functions = [...own]
    .map(([key, { bucket, us }]) => ({ fn: key.split('\u0000')[0]!, bucket, ms: us / 1000, share: us / busyUs }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 15);
  return { busyMs: busyUs / 1000, buckets, functions };
}
