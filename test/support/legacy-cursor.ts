import { createHmac } from 'node:crypto';
import { createCursorCodec } from '../../src/wallpapers/edge/cursor.js';
import { testConfig } from './harness.js';

/**
 * The cursor the API issued for the same position before cursors were sealed: base64url JSON of
 * the walk, a dot, and 128 bits of HMAC-SHA-256 of it with the secret itself. A client may have
 * saved one (a change-feed position kept by a mirror) across the upgrade.
 */
export function asIssuedBeforeTheSeal(cursor: string, secret = testConfig().cursorSecret!): string {
  const { position, page, query } = createCursorCodec(secret).decode(cursor);
  const walk = { i: position.index, a: position.after, t: position.total, s: position.shuffled ? 1 : undefined, p: page, q: query };
  const payload = Buffer.from(JSON.stringify(walk)).toString('base64url');
  return `${payload}.${createHmac('sha256', secret).update(payload).digest().subarray(0, 16).toString('base64url')}`;
}
