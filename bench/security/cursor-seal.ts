// What sealing a cursor costs a page, against the build at a git ref: the cursor codec of each
// tree, loaded side by side in this process, encodes and decodes the same states in alternating
// rounds.
//
//   npx tsx bench/security/cursor-seal.ts --compare <git ref> [--rounds 8] [--ops 20000]
//
// The states are what pages carry: a newest-first list (date, id), a search (score, id), a walk of
// a shuffle key (key, id, total) and the change feed (sequence, id). Each op is one of each; a
// page encodes one cursor, and a page asked by cursor decodes one too.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import type { CursorCodec, CursorState } from '../../src/wallpapers/edge/cursor.js';
import { buildCompareTree } from '../api/compare-tree.js';

const { values } = parseArgs({
  options: {
    compare: { type: 'string' },
    rounds: { type: 'string', default: '8' },
    ops: { type: 'string', default: '20000' },
  },
});
if (!values.compare) throw new Error('give --compare <git ref>');
const ROUNDS = Number(values.rounds);
const OPS = Number(values.ops);
const ROOT = join(import.meta.dirname, '../..');
const SECRET = 'bench-cursor-secret-not-for-production-use';

const STATES: CursorState[] = [
  { position: { index: 'wallpapers-20261129-031502', after: [1764385502000, 981234] }, page: 7, query: 'Jq4rWcA1vR0mZx8L' },
  { position: { index: 'wallpapers-20261129-031502', after: [17.482913, 431207] }, page: 2, query: 'p9QmT2c0aLx7Vb1K' },
  {
    position: { index: 'wallpapers-20261129-031502', after: [-1234567890, 77120], total: 981344, shuffled: true },
    page: 4,
    query: 'x3NcW8e2Rt6yU0iO',
  },
  { position: { index: 'changes', after: [1844121, 12001] }, page: 2, query: 'pQ0rX2bN8cV4mL6k' },
];

type Codec = (secret: string) => CursorCodec;

function timed(codec: CursorCodec, issued: string[]): { encodeNs: number; decodeNs: number } {
  let started = process.hrtime.bigint();
  let sink = 0;
  for (let i = 0; i < OPS; i++) for (const state of STATES) sink += codec.encode(state).length;
  const encodeNs = Number(process.hrtime.bigint() - started) / (OPS * STATES.length);
  started = process.hrtime.bigint();
  for (let i = 0; i < OPS; i++) for (const text of issued) sink += codec.decode(text).page;
  const decodeNs = Number(process.hrtime.bigint() - started) / (OPS * issued.length);
  if (sink === 0) throw new Error('nothing measured');
  return { encodeNs, decodeNs };
}

const dir = mkdtempSync(join(tmpdir(), 'cursor-seal-'));
try {
  const tree = join(dir, 'tree-b');
  const sha = buildCompareTree(ROOT, values.compare, tree);
  const now = ((await import('../../src/wallpapers/edge/cursor.js')) as { createCursorCodec: Codec }).createCursorCodec(SECRET);
  const before = ((await import(join(tree, 'src/wallpapers/edge/cursor.ts'))) as { createCursorCodec: Codec }).createCursorCodec(SECRET);
  const builds = { now, before } as const;
  const issued = { now: STATES.map((s) => now.encode(s)), before: STATES.map((s) => before.encode(s)) };
  const results: Record<keyof typeof builds, { encodeNs: number; decodeNs: number }[]> = { now: [], before: [] };
  // A warm-up of each, so both are compiled before the first timed round.
  for (const name of ['now', 'before'] as const) timed(builds[name], issued[name]);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['now', 'before'] as const) : (['before', 'now'] as const);
    for (const name of order) results[name].push(timed(builds[name], issued[name]));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const row = (name: keyof typeof builds, what: 'encodeNs' | 'decodeNs') => median(results[name].map((r) => r[what]));
  const length = (name: keyof typeof builds) => issued[name].map((t) => t.length).join(', ');
  console.log(`cursor codec, working tree against ${sha}, ${ROUNDS} alternating rounds of ${OPS} x ${STATES.length} states, ${process.version}`);
  console.log('| build | encode, µs (median round) | decode, µs | cursor length, characters (list, search, shuffle, feed) |');
  console.log('|---|--:|--:|---|');
  for (const name of ['before', 'now'] as const) {
    console.log(
      `| ${name === 'now' ? 'working tree' : sha} | ${(row(name, 'encodeNs') / 1000).toFixed(2)} | ${(row(name, 'decodeNs') / 1000).toFixed(2)} | ${length(name)} |`,
    );
  }
  const ratio = (what: 'encodeNs' | 'decodeNs') => (row('now', what) / row('before', what)).toFixed(2);
  console.log(`now / before: encode ${ratio('encodeNs')}, decode ${ratio('decodeNs')}; rounds, µs: ${JSON.stringify(results)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
