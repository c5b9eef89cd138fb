import type { Context, Next } from 'koa';
import type { Access } from '../domain/access.js';
import type { Admission, Principal } from '../domain/admission.js';
import { secondsUntilReset } from '../quota.js';
import { requestContext } from '../../infra/request-context.js';
import type { Metrics } from '../../infra/metrics.js';
import { clientAddress } from '../../http/client-address.js';
import { type HttpError, forbidden, unauthorized } from '../../http/http-error.js';
import { quotaHeaders, tooManyRequests } from './rate-limit-headers.js';
import { countRefusal } from './refusals.js';

const BEARER = /^Bearer(?:\s+(.*))?$/i;

/** The key from `Authorization: Bearer <key>`, or null when absent, empty or another scheme. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = BEARER.exec(header.trim());
  const token = match?.[1]?.trim();
  return token ? token : null;
}

export interface AuthState {
  principal: Principal;
  admission: Exclude<Admission, { outcome: 'invalid' }>;
}

export interface AccessGuardOptions {
  access: Access;
  metrics: Metrics;
  /** Proxies in front that append to X-Forwarded-For (see clientAddress). */
  trustProxyHops: number;
}

/**
 * The one gate in front of every /v1 route (attached to that router, never to a path test):
 * authenticates `Authorization: Bearer <key>`, puts the rate-limit headers on the response
 * (before the handler runs, so errors keep them) and refuses with 429 when over quota.
 * Failures are counted per client; a client over its failure limit gets 429 instead of
 * 401/403 on its failing requests, while a valid key is always served.
 */
/**
 * A failed authentication, counted per client: 429 once the client is past its failure limit,
 * else the error itself. Shared by every guard that takes a key.
 */
export function authenticationRefusal({ access, metrics, trustProxyHops }: AccessGuardOptions) {
  return async function refuse(ctx: Context, err: HttpError): Promise<never> {
    const client = clientAddress(ctx.req.socket.remoteAddress, ctx.get('X-Forwarded-For') || undefined, trustProxyHops);
    const blocked = access.blockedFor(client);
    const wait = blocked > 0 ? blocked : await access.recordFailure(client);
    if (wait > 0) {
      countRefusal(metrics, 'auth_failures');
      throw tooManyRequests(wait);
    }
    throw err;
  };
}

export function accessGuard(options: AccessGuardOptions) {
  const { access, metrics } = options;
  const refuse = authenticationRefusal(options);

  return async function guard(ctx: Context, next: Next): Promise<void> {
    const token = bearerToken(ctx.get('Authorization') || undefined);
    if (!token) return refuse(ctx, unauthorized());
    const admission = await access.admit(token);
    if (admission.outcome === 'invalid') return refuse(ctx, forbidden());
    const state = ctx.state as AuthState;
    state.principal = admission.principal;
    state.admission = admission;
    const context = requestContext.getStore();
    if (context) context.keyId = admission.principal.keyId;
    const headers = quotaHeaders(admission.quota);
    ctx.set(headers);
    if (admission.outcome === 'limited') {
      countRefusal(metrics, admission.source === 'redis' ? 'quota' : 'fallback_quota');
      throw tooManyRequests(secondsUntilReset(admission.quota), headers);
    }
    await next();
  };
}
