import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { requestContext } from '../infra/request-context.js';

const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's X-Request-Id when it is well formed, else a new UUID. */
export function requestIdFrom(given: string | undefined): string {
  return given !== undefined && WELL_FORMED_ID.test(given) ? given : randomUUID();
}

/**
 * Takes the client's X-Request-Id when it is well formed (else generates a
 * UUID), echoes it on the response, and keeps it in async context so every
 * log line written while serving the request carries it.
 */
export async function withRequestId(ctx: Context, next: Next): Promise<void> {
  const requestId = requestIdFrom(ctx.get('X-Request-Id'));
  ctx.state['requestId'] = requestId;
  ctx.set('X-Request-Id', requestId);
  await requestContext.run({ requestId }, next);
}
