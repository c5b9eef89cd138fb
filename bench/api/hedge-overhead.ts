// What a hedged read costs the API when nothing is slow, per read, in process:
//   npx tsx bench/api/hedge-overhead.ts
// A read that answers at once, run directly, through hedged reads with one node (as the single-node
// benchmark runs), and through hedged reads over three healthy nodes (the cluster's path: the
// steering context, an abort controller and the deadline timer).
import { createHedgedReads } from '../../src/infra/hedged-reads.js';
import type { NodeWatch } from '../../src/infra/es-nodes.js';

const NODES = ['a', 'b', 'c'];
const healthy: NodeWatch = {
  suspects: () => new Set(),
  unanswering: () => new Set(),
  connections: () => NODES,
  preferenceAvoiding: () => undefined,
  blame: () => undefined,
  onSuspect: () => undefined,
  close: () => undefined,
};
const read = () => Promise.resolve(1);
const N = 200_000;

async function perRead(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20_000; i++) await run();
  const started = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await run();
  return Number(process.hrtime.bigint() - started) / N / 1000;
}

const single = createHedgedReads(null);
const cluster = createHedgedReads(healthy);
for (let round = 1; round <= 3; round++) {
  const direct = await perRead(read);
  const one = await perRead(() => single.run(read, 5000));
  const three = await perRead(() => cluster.run(read, 5000));
  console.log(`round ${round}: direct ${direct.toFixed(2)} µs, one node ${one.toFixed(2)} µs, three nodes ${three.toFixed(2)} µs per read`);
}
