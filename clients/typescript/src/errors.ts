/** An answer of the API other than 2xx, as its `{error, message, status}` body says. */
export class ApiError extends Error {
  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The machine-readable kind: `invalid_request`, `not_found`, `rate_limit_exceeded`, ... */
    readonly error: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The key's quota is spent, and waiting for it exceeds what the client was told to wait
 * (`maxWaitMs`): `retryAfter` says in how many seconds it comes back.
 */
export class QuotaExhausted extends ApiError {
  constructor(
    error: string,
    message: string,
    /** Seconds until the quota has room again, as Retry-After or X-RateLimit-Reset said. */
    readonly retryAfter: number,
  ) {
    super(429, error, message);
    this.name = 'QuotaExhausted';
  }
}

/** Reads an error body; anything that is not the API's error shape still becomes an ApiError. */
export function toApiError(status: number, body: unknown): ApiError {
  if (body !== null && typeof body === 'object') {
    const { error, message } = body as { error?: unknown; message?: unknown };
    if (typeof error === 'string' && typeof message === 'string') return new ApiError(status, error, message);
  }
  return new ApiError(status, 'unexpected_response', `HTTP ${status}`);
}
