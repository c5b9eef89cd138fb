/**
 * An error answered before the app sees the request (the parser's refusals, the bounds on requests
 * in flight), shaped as the app answers errors, `{error, message, status}`, with the headers its
 * middleware would have set: a request id, no caching, the CORS answer every origin gets (the API
 * allows any, without credentials) so a browser can read it, and nosniff.
 */
export function errorBeforeTheApp(
  status: number,
  error: string,
  message: string,
  requestId: string,
  exposed: readonly string[] = [],
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ error, message, status });
  return {
    body,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      'X-Request-Id': requestId,
      'Cache-Control': 'no-store',
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': ['X-Request-Id', ...exposed].join(', '),
      'X-Content-Type-Options': 'nosniff',
    },
  };
}
