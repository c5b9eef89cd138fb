import cors from '@koa/cors';

const EXPOSED = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'X-Request-Id',
  'ETag',
];

/** Browser clients on any origin may GET with an Authorization header and read the rate-limit headers. */
export function corsPolicy() {
  return cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'OPTIONS'],
    allowHeaders: ['Authorization', 'If-None-Match', 'X-Request-Id', 'Content-Type'],
    exposeHeaders: EXPOSED,
    maxAge: 600,
  });
}
