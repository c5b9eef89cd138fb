import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { createRouter } from '../../http/router.js';
import { compileParams } from '../../http/query-validator.js';
import { parametersSchema } from '../../openapi/parameters.js';
import { openApiDocument } from '../../openapi/document.js';
import { DOCS_CSP, DOCS_PATHS, docsAsset } from './docs-page.js';
import type { Readiness } from '../store/readiness.js';

// They take no parameters; one sent is a 400 naming it, as on every route. The rendered reference
// is a page for browsers, where a link may carry anything (a tracker's `utm_source`): it ignores them.
const noneOf = (path: string) => {
  const parse = compileParams<Record<string, never>>(parametersSchema(path, 'get', 'query'));
  return (ctx: Context, next: Next) => {
    parse(ctx.query);
    return next();
  };
};

/** Endpoints that need no API key: health, readiness, the OpenAPI document and its rendered reference. */
export function opsRoutes({ readiness }: { readiness: Readiness }): Router {
  const router = createRouter();

  router.get('/healthz', noneOf('/healthz'), (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', noneOf('/readyz'), async (ctx) => {
    const { ready, checks } = await readiness.check();
    ctx.set('Cache-Control', 'no-store');
    if (ready) {
      ctx.body = { status: 'ready', checks };
      return;
    }
    const failing = Object.entries(checks)
      .filter(([, v]) => v !== 'ok')
      .map(([k, v]) => (v === 'draining' ? 'draining' : `${k} failing`));
    ctx.status = 503;
    ctx.body = { error: 'service_unavailable', message: `Not ready: ${failing.join(', ')}`, status: 503, checks };
  });

  router.get('/v1/openapi.json', noneOf('/v1/openapi.json'), (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = openApiDocument;
  });

  router.get([...DOCS_PATHS], (ctx) => {
    const asset = docsAsset(ctx.path);
    if (!asset) return;
    ctx.set('Content-Security-Policy', DOCS_CSP);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = asset.type;
    ctx.body = asset.body;
  });

  return router;
}
