// Which cores the benchmark's processes may run on. The machine's cores are shared by the load
// generator and what it measures; a generator pinned apart cannot take a core from the servers
// while it times them. BENCH_LOAD_CPUS (wrk, the fixed-rate client) and BENCH_SERVER_CPUS (the
// APIs, their Redis, bare Koa, and the Elasticsearch node) take taskset's lists ("1", "0-2").
// Unset, nothing is pinned.
import { execFileSync } from 'node:child_process';
import type { Client } from '@elastic/elasticsearch';

export type Role = 'load' | 'server';

const LIST = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;

function cpusFor(role: Role): string | undefined {
  const cpus = process.env[role === 'load' ? 'BENCH_LOAD_CPUS' : 'BENCH_SERVER_CPUS'];
  if (cpus === undefined || cpus === '') return undefined;
  if (!LIST.test(cpus)) throw new Error(`BENCH_${role.toUpperCase()}_CPUS must be a CPU list such as 1 or 0-2, not ${cpus}`);
  return cpus;
}

/** The command and arguments that run `command` on the role's cores: taskset execs it, so the pid is the command's. */
export function pinned(role: Role, command: string, args: readonly string[]): [string, string[]] {
  const cpus = cpusFor(role);
  return cpus === undefined ? [command, [...args]] : ['taskset', ['-c', cpus, command, ...args]];
}

/**
 * Moves every thread of the local Elasticsearch nodes to the servers' cores; the returned function
 * puts them back where they were.
 */
export async function pinElasticsearch(es: Client): Promise<() => void> {
  const cpus = cpusFor('server');
  if (cpus === undefined) return () => undefined;
  const info = await es.nodes.info({ metric: ['process'] });
  const restores = Object.values(info.nodes).map((node) => {
    const pid = String(node.process?.id);
    const before = execFileSync('taskset', ['-p', pid], { encoding: 'utf8' }).trim().split(/\s+/).at(-1)!;
    execFileSync('taskset', ['-a', '-p', '-c', cpus, pid], { stdio: 'ignore' });
    return () => execFileSync('taskset', ['-a', '-p', before, pid], { stdio: 'ignore' });
  });
  return () => restores.forEach((restore) => restore());
}

/** What the run was pinned to, for its report. */
export function pinningNote(): string | undefined {
  const load = cpusFor('load');
  const server = cpusFor('server');
  if (load === undefined && server === undefined) return undefined;
  return `load generator on CPUs ${load ?? 'any'}, servers (API, Redis, Elasticsearch) on CPUs ${server ?? 'any'}`;
}
