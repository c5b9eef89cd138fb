import { pino } from 'pino';
import { type BatchedLines, batchedLines } from './batched-lines.js';
import { requestContext } from './request-context.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

let stdoutLines: BatchedLines | undefined;

/**
 * Standard output, a batch of lines to a write (see batchedLines), shared by every logger of the
 * process. What is held is written when the process exits, however it exits short of being
 * killed: 'exit' runs after process.exit and after an uncaught exception, and a write to standard
 * output is synchronous there (a file, a pipe or a terminal on Linux).
 */
function batchedStdout(): BatchedLines {
  if (!stdoutLines) {
    const lines = batchedLines(process.stdout);
    process.on('exit', () => lines.flush());
    stdoutLines = lines;
  }
  return stdoutLines;
}

/**
 * Structured JSON lines (pino), to standard output unless given a stream (tests give one, and
 * see each line as it is written). Every line written while a request is being served carries its
 * request id (and key id once known), never the key itself.
 */
export function createLogger(level: LogLevel, stream?: NodeJS.WritableStream): Logger {
  const batched = stream === undefined && level !== 'silent' ? batchedStdout() : undefined;
  const log = pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const ctx = requestContext.getStore();
        if (!ctx) return {};
        const { requestId, keyId, refusal } = ctx;
        // One object literal a line, as before refusals were logged: this runs for every request.
        if (refusal) return keyId ? { request_id: requestId, key_id: keyId, refusal } : { request_id: requestId, refusal };
        return keyId ? { request_id: requestId, key_id: keyId } : { request_id: requestId };
      },
    },
    (stream ?? batched ?? process.stdout) as pino.DestinationStream,
  );
  return {
    debug: (msg, fields) => log.debug(fields ?? {}, msg),
    info: (msg, fields) => log.info(fields ?? {}, msg),
    // A warning or an error goes out at once, after the lines before it: it is what an operator
    // looks for, and what a process that is failing writes next (to stderr, say) must follow it.
    warn: (msg, fields) => {
      log.warn(fields ?? {}, msg);
      batched?.flush();
    },
    error: (msg, fields) => {
      log.error(fields ?? {}, msg);
      batched?.flush();
    },
  };
}

export const silentLogger: Logger = createLogger('silent');
