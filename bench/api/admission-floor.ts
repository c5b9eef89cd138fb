// Compiled and started by startAdmissionFloor (bench/api/processes.ts):
//   node bench/tmp/admission-floor/bench/api/admission-floor.js <port> <json body file> <redis url>
//
// The least a request of this API's design can cost: Koa, the key read from its header, the one
// admission round trip (the API's own script through the API's own store and client), the quota
// headers, and a fixed JSON body. No cache lookup, no backend, no logging, no metrics. What the
// API spends above this floor is its own; what the floor spends is the design's.
import { readFileSync } from 'node:fs';
import Koa from 'koa';
import { Redis } from 'ioredis';
import { createAdmissionStore } from '../../src/access/store/admission-store.js';
import { locateKey } from '../../src/access/store/authenticate-lua.js';
import { bearerToken } from '../../src/access/edge/access-guard.js';
import { quotaHeaders } from '../../src/access/edge/rate-limit-headers.js';

const WINDOW_SECONDS = 3600;
const TIERS = { free: 1000, premium: 10000 };

const [port, bodyFile, redisUrl] = process.argv.slice(2);
const body: unknown = JSON.parse(readFileSync(bodyFile as string, 'utf8'));
const redis = new Redis(redisUrl as string, { maxRetriesPerRequest: 1 });
const store = createAdmissionStore(redis, { windowMs: WINDOW_SECONDS * 1000, tiers: TIERS });

const app = new Koa();
app.use(async (ctx) => {
  const location = locateKey(bearerToken(ctx.get('Authorization') || undefined) ?? '');
  if (!location) {
    ctx.status = 401;
    return;
  }
  const [status, , tier, limit, remaining, resetMs, nowMs] = await store.admit(location);
  if (status !== 1 && status !== 2) {
    ctx.status = 403;
    return;
  }
  ctx.set(quotaHeaders({ tier: tier!, limit: limit!, remaining: remaining!, windowSeconds: WINDOW_SECONDS, resetMs: resetMs!, nowMs: nowMs! }));
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
