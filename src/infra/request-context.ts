import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while serving a request carries. */
export interface RequestContext {
  requestId: string;
  keyId?: string;
  /** Why the request was refused with 429, once it was (access/edge/refusals.ts). */
  refusal?: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();
