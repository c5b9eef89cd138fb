import type { Context, Next } from 'koa';
import { BackendUnavailable, CursorExpired, DomainError, InvalidInput, Overloaded, TierNotServed } from '../errors.js';
import type { Logger } from '../infra/logger.js';
import { loggablePath } from './logged-path.js';
import { ERROR_MESSAGE_MAX, HttpError, cursorExpired, internalError, invalidRequest, serviceUnavailable } from './http-error.js';

/** The one place where the domain's failures become statuses. */
function toHttp(err: DomainError): HttpError {
  if (err instanceof InvalidInput) return invalidRequest(err.message);
  if (err instanceof BackendUnavailable || err instanceof Overloaded || err instanceof TierNotServed) return serviceUnavailable(err.message);
  if (err instanceof CursorExpired) return cursorExpired(err.message);
  return internalError();
}

// Messages are built to fit; this keeps the contract's bound even for one that was not.
function bounded(message: string): string {
  if (message.length <= ERROR_MESSAGE_MAX) return message;
  // The bound counts characters (code points), as JSON Schema's maxLength does.
  const chars = Array.from(message);
  return chars.length > ERROR_MESSAGE_MAX ? `${chars.slice(0, ERROR_MESSAGE_MAX - 1).join('')}…` : message;
}

function render(ctx: Context, err: HttpError): void {
  ctx.status = err.status;
  for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'application/json';
  ctx.body = { error: err.code, message: bounded(err.message), status: err.status };
}

/**
 * Renders every failure as `{error, message, status}`: HTTP errors as they are, domain errors
 * by their kind, Koa's own client errors (a malformed request) as 400-class. Anything else is
 * a bug: it is logged and answered with a bare 500, never its details.
 */
export function errorHandler(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (err) {
      if (err instanceof HttpError) return render(ctx, err);
      if (err instanceof DomainError) return render(ctx, toHttp(err));
      const expose = (err as { expose?: boolean; status?: number }).expose === true;
      const status = (err as { status?: number }).status;
      if (expose && typeof status === 'number' && status >= 400 && status < 500) {
        return render(ctx, new HttpError(status, 'invalid_request', (err as Error).message));
      }
      logger.error('unhandled error', { err: err instanceof Error ? err.stack : String(err), path: loggablePath(ctx.path) });
      render(ctx, internalError());
    }
  };
}
