import Router, { type RouterOptions } from '@koa/router';

/**
 * Every router of the service matches paths exactly: case-sensitive and with significant
 * trailing slashes. A check attached to a router then guards exactly the paths that reach its
 * routes; `/V1/wallpapers` or `/v1/wallpapers/` reach no route at all (404), rather than a
 * route whose guard was decided by a differently spelled test elsewhere.
 */
export function createRouter(options: Omit<RouterOptions, 'sensitive' | 'strict'> = {}): Router {
  return new Router({ ...options, sensitive: true, strict: true });
}

/** The pattern of the route (e.g. `/v1/wallpapers/:id`) that serves GET on `path` in the first of `routers` that has one. */
export function routePattern(routers: readonly Router[], path: string): string | undefined {
  for (const router of routers) {
    const route = router.match(path, 'GET').pathAndMethod.findLast((layer) => layer.methods.length > 0);
    if (route) return String(route.path);
  }
  return undefined;
}
