import { type IncomingMessage, type ServerResponse, Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy in front of Elasticsearch that, once told to hold, keeps the answers to searches
 * until the test opens it again. A test that needs requests in flight at a given moment gets them by construction:
 * it waits until the gate holds every search it sent (an event), acts, then opens the gate.
 * Everything that is not a search (health, aliases, gets) passes straight through.
 */
export interface EsGate {
  /** The address to give the API as ELASTICSEARCH_URL. */
  url: string;
  /**
   * From now on, answers to searches wait until open(), after `after` more have passed (a copy
   * that has started, then stalls); the count of held searches starts at 0. With `matching`, only
   * the requests whose body it accepts are held (a test stalls one read and lets the rest through).
   */
  hold(options?: { after?: number; matching?: (body: string) => boolean }): void;
  /** Resolves once the gate has held at least `count` searches (an `_msearch` line pair is one). */
  holding(count: number): Promise<void>;
  /** The bodies of the requests held now, as sent (a test tells its own searches apart by them). */
  heldBodies(): string[];
  /** Lets every held answer through, and every later one at once. */
  open(): void;
  close(): Promise<void>;
}

const SEARCH_PATH = /\/_(m?search)(\?|$)/;

function searchesIn(path: string, body: Buffer): number {
  const match = SEARCH_PATH.exec(path);
  if (!match) return 0;
  if (match[1] === 'search') return 1;
  const lines = body
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  return lines.length / 2;
}

/** A request's whole body. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startEsGate(upstream: string): Promise<EsGate> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  let held = 0;
  let isOpen = true;
  let passes = 0;
  let matching: ((body: string) => boolean) | undefined;
  const parked: (() => void)[] = [];
  const parkedBodies: string[] = [];
  const watchers: { count: number; resolve: () => void }[] = [];

  function notify() {
    for (const watcher of [...watchers]) {
      if (held >= watcher.count) {
        watchers.splice(watchers.indexOf(watcher), 1);
        watcher.resolve();
      }
    }
  }

  async function forward(req: IncomingMessage, res: ServerResponse) {
    const body = await readBody(req);
    const searches = searchesIn(req.url ?? '', body);
    const headers = { ...req.headers, host: target.host };
    const upstreamReq = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers, agent },
      (upstreamRes) => {
        const relay = () => {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          upstreamRes.pipe(res);
        };
        if (searches === 0 || isOpen || (matching !== undefined && !matching(body.toString('utf8')))) return relay();
        if (passes > 0) {
          passes--;
          return relay();
        }
        parked.push(relay);
        parkedBodies.push(body.toString('utf8'));
        held += searches;
        notify();
      },
    );
    upstreamReq.on('error', () => res.destroy());
    upstreamReq.end(body);
  }

  function open() {
    isOpen = true;
    parkedBodies.length = 0;
    for (const relay of parked.splice(0)) relay();
  }

  const server = createServer((req, res) => void forward(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    hold({ after = 0, matching: only } = {}) {
      isOpen = false;
      held = 0;
      passes = after;
      matching = only;
    },
    holding: (count) =>
      new Promise((resolve) => {
        watchers.push({ count, resolve });
        notify();
      }),
    heldBodies: () => [...parkedBodies],
    open,
    async close() {
      open();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}

/**
 * Page reads of a search for `word` that the gate holds: one per `_search`, one per query line of
 * an `_msearch`. The API's other reads of the same words (whether a word occurs, the catalogue's
 * span) ask no page, so they have no `from`.
 */
export function heldPageReads(gate: EsGate, word: string): number {
  return gate
    .heldBodies()
    .flatMap((body) => body.split('\n'))
    .filter((line) => line.includes('"from":') && line.includes(`"query":"${word}"`)).length;
}
