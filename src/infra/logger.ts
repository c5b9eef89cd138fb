import { pino } from 'pino';
import { requestContext } from './request-context.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * Structured JSON lines (pino). Every line written while a request is being
 * served carries its request id (and key id once known), never the key itself.
 */
export function createLogger(level: LogLevel, stream: NodeJS.WritableStream = process.stdout): Logger {
  const log = pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const ctx = requestContext.getStore();
        if (!ctx) return {};
        return ctx.keyId ? { request_id: ctx.requestId, key_id: ctx.keyId } : { request_id: ctx.requestId };
      },
    },
    stream as pino.DestinationStream,
  );
  return {
    debug: (msg, fields) => log.debug(fields ?? {}, msg),
    info: (msg, fields) => log.info(fields ?? {}, msg),
    warn: (msg, fields) => log.warn(fields ?? {}, msg),
    error: (msg, fields) => log.error(fields ?? {}, msg),
  };
}

export const silentLogger: Logger = createLogger('silent');
