import type { Context, Next } from 'koa';
import type { AccountLanes } from '../domain/account-lanes.js';
import type { Metrics } from '../../infra/metrics.js';
import type { AuthState } from './access-guard.js';
import { HttpError } from '../../http/http-error.js';
import { countRefusal } from './refusals.js';

/**
 * After the key check and the quota: the request takes one of its account's lanes, waiting in
 * line when they are all taken, and gives it back when its handler is done (see createAccountLanes).
 * When the line is full too, 429 with `Retry-After: 1`: the official clients wait that out and ask
 * again. The request was counted by the quota like any answered one (admission and counting are
 * one round trip, before the account is known to be busy), and keeps its quota headers.
 */
export function fairShare({ lanes, metrics }: { lanes: AccountLanes; metrics: Metrics }) {
  return async function shareLanes(ctx: Context, next: Next): Promise<void> {
    const { accountId } = (ctx.state as AuthState).principal;
    let leave = lanes.tryEnter(accountId);
    if (!leave) {
      const place = lanes.waitFor(accountId, () => ctx.req.destroyed || ctx.req.socket.destroyed);
      if (!place) {
        countRefusal(metrics, 'account_busy');
        throw new HttpError(
          429,
          'rate_limit_exceeded',
          `Too many requests of this account at once: ${lanes.perAccount} in progress and ${lanes.waitingPerAccount} waiting. ` +
            'Send fewer at a time; please try again in 1 second',
          { 'Retry-After': '1' },
        );
      }
      metrics.laneWaits.inc();
      metrics.laneWaiting.inc();
      // Never rejects: a place in line is only ever given, at the latest at shutdown (openAll).
      leave = await place;
      metrics.laneWaiting.dec();
      // A client that hung up while it waited gets no work done for it; 499 (nginx's "client
      // closed request") names it in the log and the metrics.
      if (ctx.req.destroyed || ctx.req.socket.destroyed) {
        leave();
        ctx.status = 499;
        ctx.respond = false;
        return;
      }
    }
    try {
      await next();
    } finally {
      leave();
    }
  };
}
