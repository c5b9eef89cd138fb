import type { Context, Next } from 'koa';
import type { Access } from '../domain/access.js';
import type { AccountLanes, Hold } from '../domain/account-lanes.js';
import type { Admission, Principal } from '../domain/admission.js';
import { secondsUntilReset } from '../quota.js';
import { requestContext } from '../../infra/request-context.js';
import type { Metrics } from '../../infra/metrics.js';
import { clientAddress } from '../../http/client-address.js';
import { type HttpError, forbidden, unauthorized } from '../../http/http-error.js';
import { quotaHeaders, tooManyFailures, tooManyRequests } from './rate-limit-headers.js';
import { accountBusy, countRefusal } from './refusals.js';

const SCHEME = 'bearer';
const REFUSAL_OF = { redis: 'quota', repeated: 'quota_repeated', fallback: 'fallback_quota' } as const;
const blank = (code: number) => code === 0x20 || code === 0x09;

/**
 * The key from `Authorization: Bearer <key>`, or null when absent, empty or another scheme. RFC
 * 9110 §11.4: the scheme in any case, then spaces, then the token; spaces and tabs only (a no-break
 * space is no separator, as JavaScript's \s and trim() would have it). Read in one pass: a regular
 * expression with a lazy token and trailing blanks took time in the square of the header's length
 * (68 ms for 8,000 spaces inside it).
 */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  let start = 0;
  let end = header.length;
  while (start < end && blank(header.charCodeAt(start))) start++;
  while (end > start && blank(header.charCodeAt(end - 1))) end--;
  let at = start + SCHEME.length;
  if (at >= end || !blank(header.charCodeAt(at)) || header.slice(start, at).toLowerCase() !== SCHEME) return null;
  while (blank(header.charCodeAt(at))) at++;
  return header.slice(at, end);
}

function authorizationLines({ rawHeaders }: Context['req']): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.length === 13 && rawHeaders[i]!.toLowerCase() === 'authorization') count++;
  return count;
}

export interface AuthState {
  principal: Principal;
  admission: Exclude<Admission, { outcome: 'invalid' }>;
  /** The place kept in the account's lanes before the quota was checked (see accessGuard). */
  hold?: Hold;
}

export interface AccessGuardOptions {
  access: Access;
  metrics: Metrics;
  /** Proxies in front that append to X-Forwarded-For (see clientAddress). */
  trustProxyHops: number;
}

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
      throw tooManyFailures(wait);
    }
    throw err;
  };
}

/**
 * The key a request presents; else its refusal, 401, counted as a failure. Several Authorization
 * headers present no key: Node keeps the first, and a proxy in front may have read another. They
 * were a 400, which the contract gives the quota headers a request without a key cannot have
 * (helper-94); the 401 it gives a request without a usable key has none.
 */
export function presentedKey(options: AccessGuardOptions) {
  const refuse = authenticationRefusal(options);
  return async function keyOf(ctx: Context): Promise<string> {
    if (authorizationLines(ctx.req) > 1) return refuse(ctx, unauthorized('A request must carry one Authorization header, not several'));
    const token = bearerToken(ctx.get('Authorization') || undefined);
    if (!token) return refuse(ctx, unauthorized());
    return token;
  };
}

/**
 * The one gate in front of every /v1 route (attached to that router, never to a path test):
 * authenticates `Authorization: Bearer <key>`, puts the rate-limit headers on the response
 * (before the handler runs, so errors keep them) and refuses with 429 when over quota.
 * Failures are counted per client; a client over its failure limit gets 429 instead of
 * 401/403 on its failing requests, while a valid key is always served.
 *
 * With `lanes`, a key the process has served keeps a place in its account's lanes or line before
 * its quota is checked: an account with as many requests at work, waiting and on their way as its
 * line holds is refused there, 429 with `Retry-After: 1`, uncounted and without asking Redis. A
 * refusal after the quota is checked is counted (one round trip admits and counts), and a burst
 * of a busy client had spent 92 % of its hour's quota on refusals (review). A key new to the
 * process sends its first request to the quota alone: its account is not known to be its own
 * until Redis says so. The requests of that key arriving meanwhile wait for that answer (one
 * round trip), then keep their places as any served key's do. An account Redis last reported
 * spent goes to the quota first: its requests will not run, and kept places would have called it
 * busy instead of spent (review).
 */
export function accessGuard(options: AccessGuardOptions & { lanes?: AccountLanes }) {
  const { access, metrics, lanes } = options;
  const refuse = authenticationRefusal(options);
  const keyOf = presentedKey(options);

  return async function guard(ctx: Context, next: Next): Promise<void> {
    const token = await keyOf(ctx);
    let account = lanes ? access.accountWithRoom(token) : null;
    // A key new to the process whose first request is at Redis: the rest of its burst waits for
    // that answer, which names the account, so that its line refuses them before they are counted.
    const first = lanes && account === null ? access.firstAnswer(token) : null;
    if (first) {
      await first;
      account = access.accountWithRoom(token);
    }
    const hold = account !== null ? (lanes!.hold(account) ?? null) : undefined;
    if (hold === null) throw accountBusy(lanes!, metrics);
    try {
      const admission = await access.admit(token);
      if (admission.outcome === 'invalid') return await refuse(ctx, forbidden());
      const state = ctx.state as AuthState;
      state.principal = admission.principal;
      state.admission = admission;
      if (hold) state.hold = hold;
      const context = requestContext.getStore();
      if (context) context.keyId = admission.principal.keyId;
      const headers = quotaHeaders(admission.quota);
      ctx.set(headers);
      if (admission.outcome === 'limited') {
        countRefusal(metrics, REFUSAL_OF[admission.source]);
        throw tooManyRequests(secondsUntilReset(admission.quota), headers);
      }
      await next();
    } finally {
      // Given back unless its request asked for its lane (fair-share), which made it its own.
      hold?.release();
    }
  };
}
