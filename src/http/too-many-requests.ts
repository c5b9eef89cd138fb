import { HttpError } from './http-error.js';
import { retryMessage } from '../access/quota.js';

export function tooManyRequests(retryAfterSeconds: number, headers: Record<string, string> = {}): HttpError {
  return new HttpError(
    429,
    'rate_limit_exceeded',
    `Rate limit exceeded. Please try again in ${retryMessage(retryAfterSeconds)}`,
    { ...headers, 'Retry-After': String(retryAfterSeconds) },
  );
}
