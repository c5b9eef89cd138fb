import type { Context, Next } from 'koa';
import type { AccountLanes } from '../domain/account-lanes.js';
import type { Metrics } from '../../infra/metrics.js';
import type { AuthState } from './access-guard.js';
import { accountBusy } from './refusals.js';
import { BackendUnavailable, Overloaded } from '../../errors.js';

/**
 * After the key check and the quota: the request takes one of its account's lanes, waiting in
 * line when they are all taken, and gives it back when its handler is done (see createAccountLanes).
 * A key the process has served had its place kept before its quota was checked (accessGuard), so
 * a full line refused it uncounted; so did the rest of a new key's first burst, which waited for
 * its first request's answer to learn the account. A request that finds the line full only here,
 * after its quota was counted (that first request, when another key of its account took the last
 * place meanwhile), is 429 with `Retry-After: 1` and its quota headers, counted.
 */
export function fairShare({ lanes, metrics }: { lanes: AccountLanes; metrics: Metrics }) {
  return async function shareLanes(ctx: Context, next: Next): Promise<void> {
    const { principal, hold } = ctx.state as AuthState;
    const { accountId } = principal;
    let leave = lanes.tryEnter(accountId, hold);
    if (!leave) {
      const place = lanes.waitFor(accountId, () => ctx.req.destroyed || ctx.req.socket.destroyed);
      if (!place) throw accountBusy(lanes, metrics);
      metrics.laneWaits.inc();
      metrics.laneWaiting.inc();
      // Never rejects: a place in line is given, at the latest at shutdown (openAll), or the wait ends.
      const entered = await place;
      metrics.laneWaiting.dec();
      // Its account's lanes served nothing that long: the requests in them wait on a backend that
      // does not answer, so this one would too. 503 within the time the docs give a request (plus its own).
      if (entered === null) throw new Overloaded('The service is busy, please retry shortly');
      leave = entered;
      // A client that hung up while it waited gets no work done for it; 499 (nginx's "client
      // closed request") names it in the log and the metrics.
      if (ctx.req.destroyed || ctx.req.socket.destroyed) {
        leave();
        ctx.status = 499;
        ctx.respond = false;
        return;
      }
    }
    // Served: answered, whatever the answer, but for a backend that did not answer in time.
    let served = true;
    try {
      await next();
      served = ctx.status < 500;
    } catch (err) {
      served = !(err instanceof BackendUnavailable || err instanceof Overloaded);
      throw err;
    } finally {
      leave(served);
    }
  };
}
