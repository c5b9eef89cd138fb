import { exitWhenDone } from './exit-when-done.js';
import type { Client } from '@elastic/elasticsearch';
import type { RedisClient } from '../../infra/redis.js';
import { cannotReach, ConfigError, loadConfig, type Config } from '../../config.js';
import { TOOLS_MAX_ANSWER_BYTES, createEsClient } from '../../infra/elasticsearch.js';
import { connectedRedis } from '../../infra/redis.js';
import { inTime } from '../../infra/in-time.js';
import { acquireCatalogueLock, describeHolder, heedingInterrupts, LockHeldError, type CatalogueLock } from '../admin/catalogue-lock.js';
import { interruptionOf, stopping, trapInterrupts } from './interrupt.js';
import { UsageError } from './cli-args.js';

export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_LOCKED = 3;

export type Say = (line: string) => void;

export interface CommandContext {
  config: Config;
  es: Client;
  redis: RedisClient;
  say: Say;
  /** Null for runs that change nothing. */
  lock: CatalogueLock | null;
  /** Aborts on SIGINT/SIGTERM or when the lock is lost. */
  signal: AbortSignal;
}

export interface CatalogueCommand<A extends { help: boolean }> {
  name: string;
  usage: string;
  parse(argv: readonly string[]): A;
  /** Checks that need no connection, such as an input file being readable; throws UsageError. */
  check?(args: A): Promise<void>;
  /** Whether the run changes the catalogue and so must hold the lock. */
  locked(args: A): boolean;
  run(context: CommandContext, args: A): Promise<number>;
}

/** A URL fit for a log line: credentials are never printed. */
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The exit code for a run that failed with this error: 130/143 when interrupted, 1 otherwise. */
export function failureCode(error: unknown): number {
  return interruptionOf(error)?.exitCode ?? EXIT_FAILED;
}

// A cluster that is failing over retries a command past its own timeout; the lock expires by
// itself, so a finished run does not wait on its release longer than this.
const RELEASE_MS = 5000;

function connectRedis(config: Config): Promise<RedisClient> {
  return connectedRedis({ url: config.redisUrl, commandTimeoutMs: Math.max(config.redisTimeoutMs, 2000) });
}

/**
 * Holds the catalogue lock for the alias around `work`. A lock held elsewhere is refused
 * with the holder named (exit 3); Redis being unreachable is a failure (exit 1).
 */
export async function withCatalogueLock(
  config: Config,
  command: string,
  say: Say,
  work: (lock: CatalogueLock, redis: RedisClient) => Promise<number>,
): Promise<number> {
  let redis: RedisClient;
  try {
    redis = await connectRedis(config);
  } catch (error) {
    say(cannotReach('Redis', config.redisUrl, message(error), 'it holds the catalogue lock'));
    return EXIT_FAILED;
  }
  try {
    let lock;
    try {
      lock = await acquireCatalogueLock(redis, config.indexAlias, command, { onSilence: say });
    } catch (error) {
      if (!(error instanceof LockHeldError)) throw error;
      say(`${error.message}; refusing to run alongside it, try again once it has finished`);
      return EXIT_LOCKED;
    }
    if (lock.tookOver !== null) say(`took over ${lock.key} from ${describeHolder(lock.tookOver)}, which no longer runs`);
    try {
      return await work(lock, redis);
    } finally {
      await inTime(lock.release(), RELEASE_MS, () => {
        throw new Error(`no answer in ${RELEASE_MS / 1000} s`);
      }).catch((error: unknown) => say(`could not release ${lock.key} (it expires by itself): ${message(error)}`));
    }
  } finally {
    redis.disconnect();
  }
}

/**
 * The catalogue tools' Elasticsearch client: bulk requests, refreshes and verification queries on a
 * large index outlast the API's budget, and their answers its size cap.
 */
export function toolsClient(config: Config): Client {
  return createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 120_000, maxAnswerBytes: TOOLS_MAX_ANSWER_BYTES });
}

/** Whether Elasticsearch answers within 5 s; when not, says so, naming where it was looked for. */
export async function reachable(es: Client, config: Config, say: Say): Promise<boolean> {
  try {
    await es.cluster.health({}, { requestTimeout: 5000 });
    return true;
  } catch (error) {
    say(cannotReach('Elasticsearch', config.elasticsearchUrl, message(error)));
    return false;
  }
}

/** Parses, connects, takes the lock when the run changes anything, traps signals, runs, cleans up. */
export async function runCatalogueCommand<A extends { help: boolean }>(command: CatalogueCommand<A>, argv = process.argv.slice(2)): Promise<number> {
  const say: Say = (line) => process.stderr.write(`${command.name}: ${line}\n`);
  let args: A;
  let config: Config;
  try {
    args = command.parse(argv);
    if (args.help) {
      process.stdout.write(`${command.usage}\n`);
      return 0;
    }
    await command.check?.(args);
    config = loadConfig();
  } catch (error) {
    if (error instanceof UsageError) say(`${error.message}\n${command.usage}`);
    else if (error instanceof ConfigError) say(error.message);
    else throw error;
    return EXIT_USAGE;
  }
  const es = toolsClient(config);
  try {
    if (!(await reachable(es, config, say))) return EXIT_FAILED;
    const run = async (lock: CatalogueLock | null, redis: RedisClient) => {
      const interrupts = trapInterrupts((reason) => say(stopping(reason)));
      try {
        if (lock === null) return await command.run({ config, es, redis, say, lock, signal: interrupts.signal }, args);
        return await command.run(
          { config, es, redis, say, lock: heedingInterrupts(lock, interrupts.signal), signal: AbortSignal.any([interrupts.signal, lock.lost]) },
          args,
        );
      } finally {
        interrupts.dispose();
      }
    };
    if (command.locked(args)) return await withCatalogueLock(config, command.name, say, run);
    let redis: RedisClient;
    try {
      redis = await connectRedis(config);
    } catch (error) {
      say(cannotReach('Redis', config.redisUrl, message(error)));
      return EXIT_FAILED;
    }
    try {
      return await run(null, redis);
    } finally {
      redis.disconnect();
    }
  } finally {
    await es.close();
  }
}

/** Runs the command as the process's main and sets its exit code. */
export function main<A extends { help: boolean }>(command: CatalogueCommand<A>): void {
  // A reader that went away (`| head`) must not kill a run half-way: the work carries on unseen.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const say: Say = (line) => process.stderr.write(`${command.name}: ${line}\n`);
  runCatalogueCommand(command).then(
    (code) => exitWhenDone(code, say),
    (error: unknown) => {
      say(message(error));
      exitWhenDone(failureCode(error), say);
    },
  );
}
