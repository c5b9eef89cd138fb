import type { Context, Next } from 'koa';
import type { AccountLanes } from '../domain/account-lanes.js';
import type { Metrics } from '../../infra/metrics.js';
import type { AuthState } from './access-guard.js';

/**
 * After the key check and the quota: the request takes one of its account's lanes, waiting in
 * line when they are all taken, and gives it back when its handler is done (see createAccountLanes).
 */
export function fairShare({ lanes, metrics }: { lanes: AccountLanes; metrics: Metrics }) {
  return async function shareLanes(ctx: Context, next: Next): Promise<void> {
    const { accountId } = (ctx.state as AuthState).principal;
    let leave = lanes.tryEnter(accountId);
    if (!leave) {
      metrics.laneWaits.inc();
      metrics.laneWaiting.inc();
      // Never rejects: a place in line is only ever given, at the latest at shutdown (openAll).
      leave = await lanes.waitFor(accountId);
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
