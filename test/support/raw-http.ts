import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends one request with the request-target and header lines exactly as given: fetch and
 * http.request normalise dot segments and some escapes, and join a repeated header, before
 * sending, which would hide what a server does with them.
 */
export function rawRequest(
  baseUrl: string,
  target: string,
  { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> | readonly (readonly [string, string])[] } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${method} ${target}`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0);
      const parsed: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        if (at > 0) parsed[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({ status, headers: parsed, body: rest.join('\r\n\r\n') });
    });
    const lines = [`${method} ${target} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close'];
    // As pairs, a header may be sent more than once.
    for (const [name, value] of Array.isArray(headers) ? headers : Object.entries(headers)) lines.push(`${name}: ${value}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}
