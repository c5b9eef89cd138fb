import type { IncomingMessage } from 'node:http';
import { loggablePath } from './logged-path.js';

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

/**
 * The bytes of an answer written straight to a socket, for what Node hands over before any
 * response object exists (a request its parser refused, a CONNECT); the connection then closes.
 */
export function rawAnswer(status: number, reason: string, headers: Record<string, string>, body: string): string {
  const lines = Object.entries({ ...headers, Connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${reason}\r\n${lines.join('')}\r\n${body}`;
}

/** Why a request was answered before the app: a label of wallpapers_protocol_refusals_total. */
export const PROTOCOL_REFUSALS = [
  'malformed',
  'headers_too_large',
  'request_timeout',
  'no_host',
  'several_hosts',
  'transfer_coding',
  'connect',
] as const;
export type ProtocolRefusal = (typeof PROTOCOL_REFUSALS)[number];

/** A refused request's path as its log line names it: no query, at most 200 characters, no key. */
export function loggedPath(req: IncomingMessage): string {
  return loggablePath((req.url ?? '').split('?')[0]!);
}
