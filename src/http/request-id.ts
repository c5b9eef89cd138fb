import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { requestContext } from '../infra/request-context.js';
import { holdsKey } from '../access/api-key.js';

const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The client's X-Request-Id when it is well formed, else a new UUID. One that may hold a key is not
 * taken: every log line of the request carries the id, and the key would be written with it.
 */
export function requestIdFrom(given: string | undefined): string {
  return given !== undefined && WELL_FORMED_ID.test(given) && !holdsKey(given) ? given : randomUUID();
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
