import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { pinned } from './cpu-pinning.js';

const run = promisify(execFile);

export interface FixedRateResult {
  rate: number;
  sent: number;
  completed: number;
  errors: number;
  non2xx: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** How late the generator itself sent its requests (p99, max) and its own longest event-loop delay. */
  lateP99Ms: number;
  lateMaxMs: number;
  loopMaxMs: number;
}

export interface FixedRateRun {
  url: string;
  file: string;
  keysFile?: string;
  rate: number;
  seconds: number;
  connections: number;
}

/** Runs bench/api/fixed-rate-client.ts in its own process (wrk has no fixed-rate mode). */
export async function runFixedRate(cwd: string, { url, file, keysFile = '', rate, seconds, connections }: FixedRateRun): Promise<FixedRateResult> {
  const config = JSON.stringify({ url, file, keysFile, rate, seconds, connections });
  const { stdout } = await run(...pinned('load', process.execPath, ['--import', 'tsx', 'bench/api/fixed-rate-client.ts', config]), {
    cwd,
    maxBuffer: 4 * 1024 * 1024,
  });
  const result = JSON.parse(stdout.trim().split('\n').at(-1) as string) as Omit<FixedRateResult, 'rate'>;
  return { rate, ...result };
}
