import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { pinned } from './cpu-pinning.js';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('./replay.lua', import.meta.url));

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  /** Socket errors and timeouts. */
  errors: number;
  /** Responses with a status outside 2xx/3xx. */
  non2xx: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  meanMs: number;
}

export interface WrkRun {
  url: string;
  file: string;
  keysFile?: string;
  seconds: number;
  connections: number;
  threads: number;
}

interface DoneLine {
  requests: number;
  duration_us: number;
  errors: Record<'connect' | 'read' | 'write' | 'status' | 'timeout', number>;
  latency_us: Record<'p50' | 'p90' | 'p99' | 'mean', number>;
}

/** One closed-loop wrk run over loopback, replaying a request file (see replay.lua). */
export async function runWrk({ url, file, keysFile = '', seconds, connections, threads }: WrkRun): Promise<WrkResult> {
  const args = [
    `-t${threads}`,
    `-c${connections}`,
    `-d${Math.max(1, Math.round(seconds))}s`,
    '--timeout',
    '5s',
    '-s',
    SCRIPT,
    url,
    '--',
    file,
    keysFile,
  ];
  const { stdout } = await run(...pinned('load', 'wrk', args), { maxBuffer: 16 * 1024 * 1024 });
  const line = stdout.split('\n').find((l) => l.startsWith('{"requests"'));
  if (!line) throw new Error(`wrk printed no result:\n${stdout}`);
  const done = JSON.parse(line) as DoneLine;
  const elapsed = done.duration_us / 1e6;
  const ms = (us: number) => us / 1000;
  const { connect, read, write, timeout, status } = done.errors;
  return {
    requests: done.requests,
    seconds: elapsed,
    rps: done.requests / elapsed,
    errors: connect + read + write + timeout,
    non2xx: status,
    p50Ms: ms(done.latency_us.p50),
    p90Ms: ms(done.latency_us.p90),
    p99Ms: ms(done.latency_us.p99),
    meanMs: ms(done.latency_us.mean),
  };
}
