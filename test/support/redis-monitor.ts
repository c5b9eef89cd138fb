import type { Redis } from 'ioredis';
import { until } from './until.js';

export interface MonitoredCommand {
  source: string;
  args: string[];
}

/**
 * Watches what clients send Redis (MONITOR, on a connection of its own) until `stop`, which
 * returns every command clients sent (scripts' own calls left out) and those that name the
 * account's keys: MONITOR sees every client of the server.
 */
export async function monitorAccount(
  redis: Redis,
  accountId: string,
): Promise<{ stop(): Promise<{ account: MonitoredCommand[]; all: MonitoredCommand[] }> }> {
  const observer = redis.duplicate();
  const monitor = await observer.monitor();
  const commands: MonitoredCommand[] = [];
  monitor.on('monitor', (_time: string, args: string[], source: string) => commands.push({ source, args }));
  return {
    async stop() {
      // MONITOR reports in execution order: once it shows this marker, it has shown every earlier command.
      const marker = `end-of-${accountId}-${Date.now()}`;
      const marking = redis.duplicate();
      if (marking.status !== 'ready') await new Promise((resolve) => marking.once('ready', resolve));
      await marking.echo(marker);
      marking.disconnect();
      const seen = await until(async () => commands.some((c) => c.args[0]?.toLowerCase() === 'echo' && c.args[1] === marker));
      monitor.disconnect();
      observer.disconnect();
      if (!seen) throw new Error('MONITOR did not show the marker');
      const all = commands.filter((c) => c.source !== 'lua');
      return { all, account: all.filter((c) => c.args.some((a) => a.includes(`{${accountId}}:key:`))) };
    },
  };
}
