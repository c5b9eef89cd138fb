// Open-model load generator: node --import tsx bench/api/fixed-rate-client.ts <config json>
// Requests leave on a fixed schedule whatever the responses do, and each latency is counted
// from the moment its request was due (no coordinated omission, as wrk2 does). Prints one JSON line.
import { Agent, request } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type RequestLine, readKeys, readRequestFile, withKey } from './request-files.js';

interface Config {
  url: string;
  file: string;
  /** API keys, one per line, taken in turn; empty for Elasticsearch. */
  keysFile: string;
  rate: number;
  seconds: number;
  connections: number;
}

const config = JSON.parse(process.argv[2] as string) as Config;
const target = new URL(config.url);
const lines = readRequestFile(config.file);
const keys = readKeys(config.keysFile);
const agent = new Agent({ keepAlive: true, maxSockets: config.connections });
const latencies: number[] = [];
// How late this process itself sent each request: a tail that is the generator's own (its collector,
// a core taken from it) is counted in every latency, so it is reported apart.
const lateness: number[] = [];
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();
let errors = 0;
let non2xx = 0;
let sent = 0;
let pending = 0;
const total = Math.round(config.rate * config.seconds);
const start = performance.now();

function fire(due: number): void {
  lateness.push(performance.now() - due);
  const line = withKey(lines[sent % lines.length] as RequestLine, keys, sent);
  sent++;
  pending++;
  const req = request({ host: target.hostname, port: target.port, method: line.method, path: line.path, headers: line.headers, agent }, (res) => {
    res.on('data', () => undefined);
    res.on('end', () => {
      if ((res.statusCode ?? 0) >= 400) non2xx++;
      latencies.push(performance.now() - due);
      pending--;
    });
  });
  req.on('error', () => {
    errors++;
    pending--;
  });
  req.end(line.body || undefined);
}

function tick(): void {
  const now = performance.now();
  while (sent < total && start + (sent * 1000) / config.rate <= now) fire(start + (sent * 1000) / config.rate);
  if (sent < total) setTimeout(tick, 1);
  else finish();
}

function finish(): void {
  if (pending > 0 && performance.now() - start < (config.seconds + 10) * 1000) {
    setTimeout(finish, 10);
    return;
  }
  loopDelay.disable();
  latencies.sort((a, b) => a - b);
  lateness.sort((a, b) => a - b);
  const at = (p: number, values = latencies) => values[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;
  const seconds = (performance.now() - start) / 1000;
  process.stdout.write(
    `${JSON.stringify({ sent, completed: latencies.length, seconds, errors, non2xx, p50Ms: at(50), p90Ms: at(90), p99Ms: at(99), maxMs: latencies.at(-1) ?? 0, lateP99Ms: at(99, lateness), lateMaxMs: lateness.at(-1) ?? 0, loopMaxMs: loopDelay.max / 1e6 })}\n`,
  );
  agent.destroy();
}

tick();
