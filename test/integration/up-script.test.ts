import { expect } from 'chai';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { Client } from '@elastic/elasticsearch';
import { createPictureServer } from '../../src/catalogue/generation/picture-server.js';
import { freePort } from '../support/free-port.js';
import { until } from '../support/until.js';

/**
 * The port of a URL on this machine, or null: `npm run up` starts its stack here, on ports. A
 * Redis database number is not handed over (the local test stack's is 15): `up` uses database 0.
 */
function localPort(url: string | undefined): string | null {
  return /^(?:http|redis):\/\/(?:127\.0\.0\.1|localhost):(\d+)(?:\/\d*)?$/.exec(url ?? '')?.[1] ?? null;
}

interface Run {
  child: ChildProcess;
  output: () => string;
}

function up(env: NodeJS.ProcessEnv): Run {
  // Its own process group, as a terminal gives it: Ctrl-C reaches npm and the server it started.
  const child = spawn('bash', ['scripts/up.sh'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, output: () => text };
}

async function interrupt({ child }: Run): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  process.kill(-child.pid!, 'SIGINT');
  const stopped = await Promise.race([exited.then(() => true), new Promise((resolve) => setTimeout(resolve, 15_000, false))]);
  if (!stopped) process.kill(-child.pid!, 'SIGKILL');
}

/** The banner's requests, as a developer pastes them. */
function printedRequests(output: string): { key: string; url: string }[] {
  return [...output.matchAll(/curl -s -H "Authorization: Bearer (\S+)" "(http[^"]+)"/g)].map(([, key, url]) => ({ key: key!, url: url! }));
}

// The README's first command, end to end, on the test stack: the stack's ports are handed to it as
// ES_PORT and REDIS_PORT (no URL), as a developer whose 9200 is taken does.
describe('npm run up (scripts/up.sh)', function () {
  this.timeout(240_000);
  const alias = `up-script-${Date.now()}`;
  let pictures: Server;
  let env: NodeJS.ProcessEnv;
  let es: Client;
  let feedCursor: string;
  let seedEnv: string;

  before(async function () {
    // Read here, not where the suite is declared: the global setup names the stack after files load.
    const esPort = localPort(process.env['ELASTICSEARCH_URL']);
    const redisPort = localPort(process.env['REDIS_URL']);
    if (esPort === null || redisPort === null) this.skip();
    const picturesPort = await freePort();
    const imageBaseUrl = `http://127.0.0.1:${picturesPort}`;
    pictures = createPictureServer({ seed: 42, imageBaseUrl });
    await new Promise<void>((resolve) => pictures.listen(picturesPort, '127.0.0.1', resolve));
    const { ELASTICSEARCH_URL: _es, REDIS_URL: _redis, DEMO_COUNT: _count, CURSOR_SECRET: _secret, ...rest } = process.env;
    env = {
      ...rest,
      ES_PORT: esPort,
      REDIS_PORT: redisPort,
      INDEX_ALIAS: alias,
      PORT: String(await freePort()),
      METRICS_PORT: '0',
      PICTURES_PORT: String(picturesPort),
      IMAGE_BASE_URL: imageBaseUrl,
      LOG_LEVEL: 'warn',
    };
    es = new Client({ node: `http://127.0.0.1:${esPort}` });
    // What the printed seed needs to replace this catalogue, as pasted (helper-149: without the
    // pictures' address it read them where none are served).
    seedEnv = [
      `IMAGE_BASE_URL=${imageBaseUrl}`,
      ...(esPort === '9200' ? [] : [`ELASTICSEARCH_URL=http://127.0.0.1:${esPort}`]),
      `INDEX_ALIAS=${alias}`,
    ].join(' ');
  });

  after(async () => {
    pictures?.close();
    await es?.indices.delete({ index: `${alias}-*` }, { ignore: [404] });
    await es?.close();
  });

  async function served(run: Run): Promise<{ key: string; url: string }[]> {
    const printed = await until(async () => printedRequests(run.output()).length === 3 || run.child.exitCode !== null, 180_000, 200);
    expect(printed && run.child.exitCode === null, run.output()).to.equal(true);
    return printedRequests(run.output());
  }

  it('when a port is no port, then it says which before installing or seeding anything, with 2', async () => {
    for (const [name, value] of [
      ['PORT', 'abc'],
      ['METRICS_PORT', '70000'],
      ['PICTURES_PORT', '0'],
    ]) {
      const run = up({ ...env, [name!]: value });
      try {
        expect(await until(async () => run.child.exitCode !== null, 20_000, 50), run.output()).to.equal(true);
        expect(run.child.exitCode, run.output()).to.equal(2);
        expect(run.output()).to.include(`${name} must be a port from 1 to 65535, got '${value}'`);
      } finally {
        await interrupt(run);
      }
    }
  });

  it('when run on an empty stack, then it loads DEMO_COUNT demo wallpapers and prints a key and three requests that answer 200', async () => {
    const run = up({ ...env, DEMO_COUNT: '20' });
    try {
      const requests = await served(run);
      expect(run.output()).to.include(`(20 wallpapers)`);
      for (const { key, url } of requests) {
        const answer = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
        expect(answer.status, url).to.equal(200);
      }
      const first = (await (await fetch(requests[0]!.url, { headers: { Authorization: `Bearer ${requests[0]!.key}` } })).json()) as {
        meta: { total_items: number };
      };
      expect(first.meta.total_items).to.equal(20);
      const feed = (await (
        await fetch(`${new URL(requests[0]!.url).origin}/v1/changes?per_page=5`, { headers: { Authorization: `Bearer ${requests[0]!.key}` } })
      ).json()) as {
        meta: { next_cursor: string };
      };
      feedCursor = feed.meta.next_cursor;
    } finally {
      await interrupt(run);
    }
  });

  it('when run again with another DEMO_COUNT, then the catalogue it finds is kept, it says how to replace it, and a change feed cursor of the first run still reads', async () => {
    const before = Object.keys(await es.indices.getAlias({ name: alias }));
    const run = up({ ...env, DEMO_COUNT: '30' });
    try {
      const [list] = await served(run);
      expect(run.output())
        .to.include('DEMO_COUNT=30: the catalogue already there was kept')
        .and.include(`  ${seedEnv} npm run seed -- --count 30 --seed 42 --extract-colors\n`)
        .and.include('(20 wallpapers)');
      const answer = (await (await fetch(list!.url, { headers: { Authorization: `Bearer ${list!.key}` } })).json()) as {
        meta: { total_items: number };
      };
      expect(answer.meta.total_items).to.equal(20);
      expect(Object.keys(await es.indices.getAlias({ name: alias }))).to.deep.equal(before);
      const next = await fetch(`${new URL(list!.url).origin}/v1/changes?per_page=5&cursor=${feedCursor}`, {
        headers: { Authorization: `Bearer ${list!.key}` },
      });
      expect(next.status).to.equal(200);
    } finally {
      await interrupt(run);
    }
  });
});
