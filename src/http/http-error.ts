import { componentSchema } from '../openapi/document.js';

/** The contract's bound on an error's message, read from the OpenAPI document's Error schema. */
export const ERROR_MESSAGE_MAX = messageBound();

function messageBound(): number {
  const bound: unknown = (componentSchema('Error')['properties'] as Record<string, { maxLength?: unknown }>)['message']?.maxLength;
  if (typeof bound !== 'number') throw new Error('the OpenAPI document gives Error.message no maxLength');
  return bound;
}

/** The one error type of the API; rendered as `{error, message, status}` by the error handler. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const invalidRequest = (message: string) => new HttpError(400, 'invalid_request', message);
export const unauthorized = (message = 'No API key provided') =>
  new HttpError(401, 'unauthorized', message, { 'WWW-Authenticate': 'Bearer realm="wallpapers"' });
export const forbidden = () => new HttpError(403, 'forbidden', 'Invalid API key');
export const notFound = (message = 'Resource not found') => new HttpError(404, 'not_found', message);
export const methodNotAllowed = (allowed: string[]) =>
  new HttpError(405, 'method_not_allowed', `Method not allowed; allowed: ${allowed.join(', ')}`, {
    Allow: allowed.join(', '),
  });
export const serviceUnavailable = (message = 'Service temporarily unavailable, please retry shortly') =>
  new HttpError(503, 'service_unavailable', message, { 'Retry-After': '1' });
export const cursorExpired = (message: string) => new HttpError(410, 'cursor_expired', message);
export const internalError = () => new HttpError(500, 'internal_error', 'Internal server error');
