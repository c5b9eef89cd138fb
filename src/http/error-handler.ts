import type { Context, Next } from 'koa';
import { HttpError, internalError } from './http-error.js';
import type { Logger } from '../infra/logger.js';

function render(ctx: Context, err: HttpError): void {
  ctx.status = err.status;
  for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'application/json';
  ctx.body = { error: err.code, message: err.message, status: err.status };
}

/**
 * Renders every failure as `{error, message, status}`. Anything that is not an
 * HttpError is a bug: it is logged and answered with a bare 500, never its details.
 */
export function errorHandler(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (err) {
      if (err instanceof HttpError) {
        render(ctx, err);
        return;
      }
      const expose = (err as { expose?: boolean; status?: number }).expose === true;
      const status = (err as { status?: number }).status;
      if (expose && typeof status === 'number' && status >= 400 && status < 500) {
        render(ctx, new HttpError(status, 'invalid_request', (err as Error).message));
        return;
      }
      logger.error('unhandled error', { err: err instanceof Error ? err.stack : String(err), path: ctx.path });
      render(ctx, internalError());
    }
  };
}
