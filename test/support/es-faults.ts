import { Agent, createServer, request as httpRequest } from 'node:http';
import { readBody } from './es-gate.js';
import type { AddressInfo } from 'node:net';

/** How the proxy answers the reads it is told to spoil; everything else passes. */
export type EsFault =
  | { kind: 'pass' }
  /** A 200 whose body comes a little at a time, steadily, for far longer than any timeout. */
  | { kind: 'trickle' }
  /** A 200 of `bytes`, sent as fast as the socket takes it. */
  | { kind: 'huge'; bytes: number }
  /** A 200 with this body as written (not JSON, or JSON of a shape no Elasticsearch gives). */
  | { kind: 'body'; body: string; contentType?: string }
  /** No answer at all. */
  | { kind: 'stall' }
  /** The right answer, each after `delayMs`: a node slow but working. */
  | { kind: 'slow'; delayMs: number };

export interface EsFaults {
  url: string;
  set(fault: EsFault): void;
  close(): Promise<void>;
}

// The reads a request of the API makes; cluster health, aliases and the like pass.
const READS = /\/_(msearch|mget|search|doc)\b/;

/**
 * An HTTP proxy in front of Elasticsearch that misbehaves as told: the answers of a node, or a
 * proxy or balancer in front of one, that is broken rather than down.
 */
export async function startEsFaults(upstream: string): Promise<EsFaults> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  let fault: EsFault = { kind: 'pass' };
  const timers = new Set<NodeJS.Timeout>();
  const headers = { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' };

  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const spoiled = READS.test(req.url ?? '') ? fault : { kind: 'pass' as const };
      switch (spoiled.kind) {
        case 'stall':
          return;
        case 'body':
          res.writeHead(200, { ...headers, 'content-type': spoiled.contentType ?? headers['content-type'] });
          res.end(spoiled.body);
          return;
        case 'huge': {
          res.writeHead(200, headers);
          const block = Buffer.alloc(1024 * 1024, 0x20);
          let sent = 0;
          const more = () => {
            while (sent < spoiled.bytes && !res.destroyed) {
              sent += block.length;
              if (!res.write(block)) return void res.once('drain', more);
            }
            res.end('{}');
          };
          res.write('{"pad":"');
          more();
          return;
        }
        case 'trickle': {
          res.writeHead(200, headers);
          res.write('{"pad":"');
          const timer = setInterval(() => {
            if (res.destroyed) {
              clearInterval(timer);
              timers.delete(timer);
            } else res.write('x'.repeat(1024));
          }, 20);
          timers.add(timer);
          return;
        }
        case 'slow':
        case 'pass': {
          const forward = httpRequest(
            { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host }, agent },
            (answer) => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(res);
            },
          );
          forward.on('error', () => res.destroy());
          if (spoiled.kind === 'slow') setTimeout(() => forward.end(body), spoiled.delayMs);
          else forward.end(body);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    set(next) {
      fault = next;
    },
    async close() {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
