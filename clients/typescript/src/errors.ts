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

/**
 * 410 `cursor_expired`: a walk cannot go on from its cursor. A list's walked a catalogue since
 * deleted; the change feed's was read in a record of changes since lost, restored or begun anew,
 * so changes may be missing after it. Start again without a cursor: for the feed, a copy then
 * drops what that walk does not serve once the catalogue confirms it gone (asked by `ids`).
 */
export class CursorExpired extends ApiError {
  constructor(message: string) {
    super(410, 'cursor_expired', message);
    this.name = 'CursorExpired';
  }
}

/** Reads an error body; anything that is not the API's error shape still becomes an ApiError. */
export function toApiError(status: number, body: unknown): ApiError {
  if (body !== null && typeof body === 'object') {
    const { error, message } = body as { error?: unknown; message?: unknown };
    if (status === 410 && error === 'cursor_expired' && typeof message === 'string') return new CursorExpired(message);
    if (typeof error === 'string' && typeof message === 'string') return new ApiError(status, error, message);
  }
  return new ApiError(status, 'unexpected_response', `HTTP ${status}`);
}
