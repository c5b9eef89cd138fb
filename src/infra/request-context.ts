import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while serving a request carries. */
export interface RequestContext {
  requestId: string;
  keyId?: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();
