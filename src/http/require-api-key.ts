import type { Context, Next } from 'koa';
import { HttpError, forbidden, unauthorized } from './http-error.js';
import { clientAddress } from './client-address.js';
import type { Admission, Admit } from '../access/admission.js';
import type { AuthFailureLimiter } from '../access/auth-failures.js';
import { tooManyRequests } from './too-many-requests.js';
import { requestContext } from '../infra/request-context.js';
import type { Metrics } from '../infra/metrics.js';
import type { Principal } from '../access/authenticate-lua.js';

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

export interface RequireApiKeyOptions {
  admit: Admit;
  authFailures: AuthFailureLimiter;
  metrics: Metrics;
  /** Proxies in front that append to X-Forwarded-For (see clientAddress). */
  trustProxyHops: number;
}

/**
 * Authenticates `Authorization: Bearer <key>` and leaves the rate-limit decision in ctx.state
 * for the quota middleware. Failures are counted per client; a client over its failure limit
 * gets 429 instead of 401/403 on its failing requests, while a valid key is always served.
 */
export function requireApiKey({ admit, authFailures, metrics, trustProxyHops }: RequireApiKeyOptions) {
  async function refuse(client: string, err: HttpError): Promise<never> {
    const blocked = authFailures.blockedFor(client);
    const wait = blocked > 0 ? blocked : await authFailures.recordFailure(client);
    if (wait > 0) {
      metrics.rateLimitRejections.inc({ reason: 'auth_failures' });
      throw tooManyRequests(wait);
    }
    throw err;
  }

  return async function authenticate(ctx: Context, next: Next): Promise<void> {
    const client = () => clientAddress(ctx.req.socket.remoteAddress, ctx.get('X-Forwarded-For') || undefined, trustProxyHops);
    const token = bearerToken(ctx.get('Authorization') || undefined);
    if (!token) return refuse(client(), unauthorized());
    const admission = await admit(token);
    if (admission.outcome === 'invalid') return refuse(client(), forbidden());
    const state = ctx.state as AuthState;
    state.principal = admission.principal;
    state.admission = admission;
    const context = requestContext.getStore();
    if (context) context.keyId = admission.principal.keyId;
    await next();
  };
}
