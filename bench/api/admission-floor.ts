// Compiled and started by startAdmissionFloor (bench/api/processes.ts):
//   node bench/tmp/admission-floor/bench/api/admission-floor.js <port> <json body file> <redis url>
//
// A reference minimum for a request of this API's design: Koa, the key read from its header, the
// one admission round trip (the API's own script, store and client, with the tiers and window the
// API reads from the same environment), the quota headers, and a fixed JSON body. It leaves out
// the cache lookup, routing, logging, metrics and the contract's other headers, which the API
// must carry; it keeps one choice the API need not make, serialising its body on each request.
import { readFileSync } from 'node:fs';
import Koa from 'koa';
import { Redis } from 'ioredis';
import { createAdmissionStore } from '../../src/access/store/admission-store.js';
import { locateKey } from '../../src/access/store/authenticate-lua.js';
import { bearerToken } from '../../src/access/edge/access-guard.js';
import { quotaHeaders } from '../../src/access/edge/rate-limit-headers.js';
import { loadConfig } from '../../src/config.js';

const { windowSeconds, tiers } = loadConfig().rateLimit;

const [port, bodyFile, redisUrl] = process.argv.slice(2);
const body: unknown = JSON.parse(readFileSync(bodyFile as string, 'utf8'));
const redis = new Redis(redisUrl as string, { maxRetriesPerRequest: 1 });
const store = createAdmissionStore(redis, { windowMs: windowSeconds * 1000, tiers });

const app = new Koa();
app.use(async (ctx) => {
  const location = locateKey(bearerToken(ctx.get('Authorization') || undefined) ?? '');
  if (!location) {
    ctx.status = 401;
    return;
  }
  const [status, , tier, limit, remaining, resetMs, nowMs] = await store.admit(location);
  // As the API answers: 3 is a tier this process does not name (503), anything else a key it does not know.
  if (status !== 1 && status !== 2) {
    ctx.status = status === 3 ? 503 : 403;
    return;
  }
  ctx.set(quotaHeaders({ tier: tier!, limit: limit!, remaining: remaining!, windowSeconds, resetMs: resetMs!, nowMs: nowMs! }));
  if (status === 2) {
    ctx.status = 429;
    return;
  }
  // An object, not a string: Koa serialises it on each request, as the API's handlers do.
  ctx.body = body;
});
const server = app.listen(Number(port), '127.0.0.1');
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () =>
  server.close(() => {
    redis.disconnect();
    process.exit(0);
  }),
);
