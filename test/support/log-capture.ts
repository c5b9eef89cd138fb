import { PassThrough } from 'node:stream';
import { type LogLevel, type Logger, createLogger } from '../../src/infra/logger.js';

export interface CapturedLogs {
  logger: Logger;
  text(): string;
}

/** A real logger whose JSON lines are kept in memory for assertions. */
export function captureLogs(level: LogLevel = 'debug'): CapturedLogs {
  const stream = new PassThrough();
  let logged = '';
  stream.on('data', (chunk: Buffer) => (logged += chunk.toString()));
  return { logger: createLogger(level, stream), text: () => logged };
}
