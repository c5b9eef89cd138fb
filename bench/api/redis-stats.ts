import { connect } from 'node:net';
import type { Redis } from 'ioredis';

/** Calls per command from INFO commandstats (cmdstat_evalsha:calls=12,...). */
export async function commandCalls(redis: Redis): Promise<Map<string, number>> {
  const info = await redis.info('commandstats');
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(match[1] as string, Number(match[2]));
  return calls;
}

export interface RedisDelta {
  evalsha: number;
  /** Every command but the INFO calls that measure them. */
  total: number;
}

export function redisDelta(before: Map<string, number>, after: Map<string, number>): RedisDelta {
  let total = 0;
  for (const [command, calls] of after) {
    if (command !== 'info') total += calls - (before.get(command) ?? 0);
  }
  return { evalsha: (after.get('evalsha') ?? 0) - (before.get('evalsha') ?? 0), total };
}

export interface RoundTripAudit {
  requests: number;
  /** Commands the API sent, not counting those its scripts ran inside Redis. */
  commands: Record<string, number>;
  perRequest: number;
}

/**
 * commandstats also counts the commands a script runs, so round trips are counted with
 * MONITOR, which marks those as coming from lua. MONITOR slows Redis down, so this runs
 * after the timed runs, over a few sequential requests. A plain socket: a client library's
 * monitor mode is one more state machine that can trip over a connection closed mid-line.
 */
export async function auditRoundTrips(redisUrl: string, apiUrl: string, key: string, paths: string[]): Promise<RoundTripAudit> {
  const { hostname, port } = new URL(redisUrl);
  const socket = connect(Number(port || 6379), hostname);
  const commands: Record<string, number> = {};
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\r\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const match = /^\+[\d.]+ \[\d+ ([^\]]+)\] "([^"]+)"/.exec(line);
      if (!match || match[1] === 'lua') continue;
      const name = (match[2] as string).toLowerCase();
      commands[name] = (commands[name] ?? 0) + 1;
    }
  });
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write('MONITOR\r\n');
  await new Promise((resolve) => setTimeout(resolve, 100));
  try {
    for (const path of paths) {
      const res = await fetch(`${apiUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    socket.end();
    await closed;
  }
  const total = Object.values(commands).reduce((sum, n) => sum + n, 0);
  return { requests: paths.length, commands, perRequest: paths.length > 0 ? total / paths.length : 0 };
}
