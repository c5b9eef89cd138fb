import type { Context, Next } from 'koa';
import { HttpError, forbidden, unauthorized } from '../http/http-error.js';
import type { Admission, Admit } from '../rate-limit/admission.js';
import type { AuthFailureLimiter } from '../rate-limit/auth-failure-limiter.js';
import { tooManyRequests } from '../rate-limit/too-many-requests.js';
import { requestContext } from '../http/request-context.js';
import type { Metrics } from '../metrics.js';
import type { Principal } from './authenticate-key.js';

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

/**
 * Authenticates `Authorization: Bearer <key>` and leaves the rate-limit
 * decision in ctx.state for the quota middleware. Failures are counted per
 * client IP; an IP over its failure limit gets 429 for every request.
 */
export function requireApiKey(admit: Admit, authFailures: AuthFailureLimiter, metrics: Metrics) {
  function blockedIp(wait: number): HttpError {
    metrics.rateLimitRejections.inc({ reason: 'auth_failures' });
    return tooManyRequests(wait);
  }

  async function refuse(ip: string, err: HttpError): Promise<never> {
    const wait = await authFailures.recordFailure(ip);
    throw wait > 0 ? blockedIp(wait) : err;
  }

  return async function authenticate(ctx: Context, next: Next): Promise<void> {
    const blocked = authFailures.blockedFor(ctx.ip);
    if (blocked > 0) throw blockedIp(blocked);
    const token = bearerToken(ctx.get('Authorization') || undefined);
    if (!token) return refuse(ctx.ip, unauthorized());
    const admission = await admit(token);
    if (admission.outcome === 'invalid') return refuse(ctx.ip, forbidden());
    const state = ctx.state as AuthState;
    state.principal = admission.principal;
    state.admission = admission;
    const context = requestContext.getStore();
    if (context) context.keyId = admission.principal.keyId;
    await next();
  };
}
