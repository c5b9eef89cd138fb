import type { Context, Next } from 'koa';
import { forbidden, serviceUnavailable, unauthorized } from '../http/http-error.js';
import type { Logger } from '../logger.js';
import type { KeyAuthenticator, Principal } from './authenticate-key.js';

const BEARER = /^Bearer(?:\s+(.*))?$/i;

/** The key from `Authorization: Bearer <key>`, or null when absent, empty or another scheme. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = BEARER.exec(header.trim());
  const token = match?.[1]?.trim();
  return token ? token : null;
}

export interface AuthState {
  principal: Principal;
}

export function requireApiKey(authenticateKey: KeyAuthenticator, logger: Logger) {
  return async function authenticate(ctx: Context, next: Next): Promise<void> {
    const token = bearerToken(ctx.get('Authorization') || undefined);
    if (!token) throw unauthorized();
    let principal: Principal | null;
    try {
      principal = await authenticateKey(token);
    } catch (err) {
      logger.warn('redis unavailable during authentication', { reason: err instanceof Error ? err.message : String(err) });
      throw serviceUnavailable('Authentication is temporarily unavailable, please retry shortly');
    }
    if (!principal) throw forbidden();
    (ctx.state as AuthState).principal = principal;
    await next();
  };
}
