import { Client } from '@elastic/elasticsearch';

export interface EsClientOptions {
  url: string;
  requestTimeoutMs: number;
}

/** One client per process; retries are off so that a dead node fails fast instead of hanging a request. */
export function createEsClient({ url, requestTimeoutMs }: EsClientOptions): Client {
  return new Client({
    node: url,
    requestTimeout: requestTimeoutMs,
    maxRetries: 0,
    compression: false,
  });
}
