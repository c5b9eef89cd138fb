import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Client } from '@elastic/elasticsearch';
import { watchNodes } from '../../../src/infra/es-nodes.js';
import { sleep, until } from '../../support/until.js';

/** A pool of nodes answering the probe with their ids, unless `hung` (never answers) or `down` (refuses). */
function fakeClient(ids: string[]) {
  const hung = new Set<string>();
  const down = new Set<string>();
  const connections = ids.map((id) => ({
    id: `http://${id}/`,
    request: () =>
      down.has(id)
        ? Promise.reject(new Error('ECONNREFUSED'))
        : new Promise((resolve) => {
            const answer = () =>
              hung.has(id) ? setTimeout(answer, 5) : resolve({ statusCode: 200, body: JSON.stringify({ nodes: { [`id-${id}`]: { name: id } } }) });
            answer();
          }),
  }));
  return { es: { connectionPool: { connections } } as unknown as Client, hung, down };
}

const OPTIONS = { probeEveryMs: 10, suspectAfterMs: 40, leaveOutMs: 100, blameLimit: 2 };

describe('watchNodes', () => {
  it('when every node answers its probes, then none is a suspect and preferences name nodes by their ids', async () => {
    const { es } = fakeClient(['n1', 'n2', 'n3']);
    const watch = watchNodes(es, OPTIONS);
    await sleep(50);
    expect([...watch.suspects()]).to.deep.equal([]);
    expect(watch.preferenceAvoiding(new Set(['http://n1/']))).to.equal('_prefer_nodes:id-n2,id-n3');
    expect(watch.preferenceAvoiding(new Set())).to.equal(undefined);
    watch.close();
  });

  it('when a node stops answering, then it becomes a suspect soon after, and no longer once it answers again', async () => {
    const { es, hung } = fakeClient(['n1', 'n2']);
    const watch = watchNodes(es, OPTIONS);
    const told: string[] = [];
    watch.onSuspect((id) => told.push(id));
    await sleep(30);
    hung.add('n2');
    await sleep(100);
    expect([...watch.suspects()]).to.deep.equal(['http://n2/']);
    expect([...watch.unanswering()]).to.deep.equal(['http://n2/']);
    expect(told).to.deep.equal(['http://n2/']);
    hung.delete('n2');
    await sleep(50);
    expect([...watch.suspects()]).to.deep.equal([]);
    watch.close();
  });

  it('when a node refuses connections, then it is a suspect at its next probe', async () => {
    const { es, down } = fakeClient(['n1', 'n2']);
    down.add('n1');
    const watch = watchNodes(es, OPTIONS);
    await sleep(30);
    expect([...watch.suspects()]).to.deep.equal(['http://n1/']);
    watch.close();
  });

  it('when hedges keep winning over one node, then it is left out for a while although it answers probes', async () => {
    const { es } = fakeClient(['n1', 'n2']);
    const watch = watchNodes(es, OPTIONS);
    await sleep(30);
    watch.blame('http://n1/');
    expect([...watch.suspects()]).to.deep.equal([]);
    watch.blame('http://n1/');
    expect([...watch.suspects()]).to.deep.equal(['http://n1/']);
    expect([...watch.unanswering()], 'left out, it still answers').to.deep.equal([]);
    await sleep(150);
    expect([...watch.suspects()]).to.deep.equal([]);
    watch.close();
  });

  it('when every other node is a suspect, then blame never leaves out the last one standing', async () => {
    const { es, hung } = fakeClient(['n1', 'n2']);
    const watch = watchNodes(es, OPTIONS);
    await sleep(30);
    hung.add('n2');
    await sleep(80);
    watch.blame('http://n1/');
    watch.blame('http://n1/');
    expect([...watch.suspects()]).to.deep.equal(['http://n2/']);
    hung.clear();
    watch.close();
  });

  it('when a node’s id is not known yet, then no preference is given', () => {
    const { es } = fakeClient(['n1', 'n2']);
    const watch = watchNodes(es, OPTIONS);
    expect(watch.preferenceAvoiding(new Set(['http://n1/']))).to.equal(undefined);
    watch.close();
  });

  /**
   * A real pool's probes are HTTP requests answered by this process: on a busy machine (the unit
   * tests run in four workers beside the stack's start) one took longer than OPTIONS' 40 ms and
   * every node counted as unanswering. A probe taking 300 ms is surely silence; the waits poll.
   */
  const REAL_POOL_OPTIONS = { probeEveryMs: 10, suspectAfterMs: 300, leaveOutMs: 1000, blameLimit: 2 };

  /** A real client's pool over three servers that answer the probe as a node would, unless `silent`. */
  async function realPool() {
    const servers: Server[] = [];
    const silent = new Set<string>();
    for (const name of ['n1', 'n2', 'n3']) {
      const server = createServer((_req, res) => {
        if (silent.has(name)) return;
        res.writeHead(200, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' });
        res.end(JSON.stringify({ nodes: { [`id-${name}`]: { name } } }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
    }
    const es = new Client({ nodes: servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`) });
    return {
      es,
      silent,
      close: async () => {
        silent.clear();
        await es.close();
        for (const server of servers) server.closeAllConnections();
        for (const server of servers) server.close();
      },
    };
  }

  it('when another node stops answering and the transport left out one whose probes answer (it timed out waiting on the stopped one), then it is brought back at its next probe', async () => {
    const { es, silent, close } = await realPool();
    const watch = watchNodes(es, REAL_POOL_OPTIONS);
    try {
      silent.add('n3');
      const [first, , third] = es.connectionPool.connections;
      expect(await until(async () => watch.unanswering().has(third!.id), 3000, 5)).to.equal(true);
      es.connectionPool.markDead(first!);
      expect(first!.status).to.equal('dead');
      expect(await until(async () => first!.status === 'alive', 3000, 5)).to.equal(true);
      expect([...watch.unanswering()]).to.deep.equal([third!.id]);
    } finally {
      watch.close();
      await close();
    }
  });

  it('when every node answers its probes, then one the transport left out stays out (its probe may answer while its searches fail)', async () => {
    const { es, close } = await realPool();
    const watch = watchNodes(es, REAL_POOL_OPTIONS);
    try {
      await sleep(30);
      const [first] = es.connectionPool.connections;
      es.connectionPool.markDead(first!);
      await sleep(60);
      expect(first!.status).to.equal('dead');
    } finally {
      watch.close();
      await close();
    }
  });

  it('when a node left out for lost hedges then stops answering, then listeners are told again', async () => {
    const { es, hung } = fakeClient(['n1', 'n2', 'n3']);
    const watch = watchNodes(es, OPTIONS);
    const told: string[] = [];
    watch.onSuspect((id) => told.push(id));
    await sleep(30);
    watch.blame('http://n1/');
    watch.blame('http://n1/');
    await sleep(5);
    expect(told).to.deep.equal(['http://n1/']);
    hung.add('n1');
    await sleep(80);
    expect(told).to.deep.equal(['http://n1/', 'http://n1/']);
    hung.clear();
    watch.close();
  });
});
