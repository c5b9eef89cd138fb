import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AccountQuota } from '../../access/store/admission-store.js';
import { MAX_ROTATION_GRACE_SECONDS } from '../../access/store/key-store.js';
import { clientAddress } from '../../http/client-address.js';
import { createRouter } from '../../http/router.js';
import type { Logger } from '../../infra/logger.js';
import { COPY_JS, STYLE_CSS } from './assets.js';
import { FormError, readForm } from './form.js';
import type { PortalKeys, PortalService } from '../domain/portal-service.js';
import { SESSION_IDLE_SECONDS } from '../store/session-store.js';
import { DEVICE_DAYS } from '../store/device-store.js';
import { BudgetFull } from '../../infra/work-budget.js';
import { hasInvisible } from '../../infra/visible-text.js';
import { type KeysPageState, PORTAL, keysPage, messagePage, signInPage, signUpPage, usagePage } from './views.js';

const SESSION_COOKIE = 'wpc_session';
const FORM_COOKIE = 'wpc_form';
const DEVICE_COOKIE = 'wpc_device';
const KEY_ID = /^key_[0-9A-Za-z]{12}$/;

// Nothing but the portal's own files; no inline script or style, no framing, forms post only here.
const CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** What the portal is built from (see buildServices). */
export interface PortalServices {
  service: PortalService;
  keys: PortalKeys;
  quota: AccountQuota;
  windowSeconds: number;
  /**
   * The origins the portal's forms may be posted from (PUBLIC_ORIGIN). Empty: the address the
   * connection was made to, never the request's own Host header, which the client chooses.
   */
  publicOrigins: readonly string[];
}

export interface PortalOptions extends PortalServices {
  trustProxyHops: number;
  logger: Logger;
}

type Signed = NonNullable<Awaited<ReturnType<PortalService['resume']>>>;
interface PortalState {
  signed?: Signed;
  form?: Map<string, string>;
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The developer portal: a router of its own under /portal, in the API's process and on its
 * port (docs/portal.md says why). Server-rendered pages; sessions in Redis behind an HttpOnly,
 * SameSite=Lax cookie scoped to /portal; every POST checked for its origin and a CSRF token.
 */
export function portalRoutes({ service, keys, quota, windowSeconds, trustProxyHops, publicOrigins, logger }: PortalOptions): Router {
  const router = createRouter({ prefix: PORTAL });

  // Secure when the browser's connection is TLS: here, or at a trusted proxy that says so.
  const overTls = (ctx: Context) =>
    ctx.secure || (trustProxyHops > 0 && (ctx.get('X-Forwarded-Proto').split(',').pop() ?? '').trim().toLowerCase() === 'https');
  const setCookie = (ctx: Context, name: string, value: string | null, maxAgeSeconds: number) => {
    const secure = overTls(ctx);
    if (secure) ctx.cookies.secure = true;
    ctx.cookies.set(name, value, { httpOnly: true, sameSite: 'lax', secure, path: PORTAL, maxAge: maxAgeSeconds * 1000, overwrite: true });
  };
  const client = (ctx: Context) => clientAddress(ctx.request.socket.remoteAddress, ctx.get('X-Forwarded-For'), trustProxyHops);

  const page = (ctx: Context, status: number, body: string) => {
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = body;
  };
  const account = (signed: Signed) => ({ account: { name: signed.account.name, tier: signed.account.tier, csrf: signed.session.csrf } });

  // The anonymous forms' token: a random value in a cookie and in the form; a cross-site page can
  // set neither, so a forged sign-in or sign-up fails.
  const formToken = (ctx: Context) => {
    const existing = ctx.cookies.get(FORM_COOKIE);
    if (existing && /^[A-Za-z0-9_-]{32}$/.test(existing)) return existing;
    const token = randomBytes(24).toString('base64url');
    setCookie(ctx, FORM_COOKIE, token, SESSION_IDLE_SECONDS);
    return token;
  };

  router.use(async (ctx: Context, next: Next) => {
    // The API's CORS policy lets any origin read its answers; portal pages are not for other sites.
    for (const header of Object.keys(ctx.response.headers)) {
      if (header.startsWith('access-control-')) ctx.remove(header);
    }
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('Cache-Control', 'no-store');
    try {
      await next();
    } catch (err) {
      if (err instanceof FormError) return page(ctx, err.status, messagePage('The form could not be read', err.message));
      if (err instanceof BudgetFull) {
        ctx.set('Retry-After', String(err.retryAfterSeconds));
        return page(ctx, 503, messagePage('Busy', 'Too many sign-ins are being checked right now. Please try again in a moment.'));
      }
      logger.error('portal request failed', { path: ctx.path, error: err instanceof Error ? err.message : String(err) });
      ctx.set('Retry-After', '5');
      page(ctx, 503, messagePage('Service unavailable', 'The portal cannot reach its data right now. Please try again in a few seconds.'));
    }
  });

  const ownOrigins = (ctx: Context): readonly string[] => {
    if (publicOrigins.length > 0) return publicOrigins;
    const { localAddress = '', localPort } = ctx.req.socket;
    const host = localAddress.replace(/^::ffff:/, '');
    const loopback = host === '127.0.0.1' || host === '::1';
    const names = loopback ? ['127.0.0.1', 'localhost', '[::1]'] : [host.includes(':') ? `[${host}]` : host];
    return names.map((name) => `http://${name}:${localPort}`);
  };

  // Every POST: not from another site (Fetch metadata, then Origin), and its form read once.
  const checkedPost = async (ctx: Context, next: Next) => {
    const site = ctx.get('Sec-Fetch-Site');
    const origin = ctx.get('Origin');
    if ((site && site !== 'same-origin' && site !== 'none') || (origin && !ownOrigins(ctx).includes(origin.toLowerCase()))) {
      return page(ctx, 403, messagePage('Request refused', 'This form was sent from another site. Open the portal and try again.'));
    }
    (ctx.state as PortalState).form = await readForm(ctx);
    await next();
  };
  const field = (ctx: Context, name: string) => (ctx.state as PortalState).form?.get(name) ?? '';
  const csrfRefused = (ctx: Context) =>
    page(ctx, 403, messagePage('Request refused', 'This form has expired or was not sent by the portal. Reload the page and try again.'));

  const anonymousForm = async (ctx: Context, next: Next) => {
    const cookie = ctx.cookies.get(FORM_COOKIE) ?? '';
    if (!cookie || !sameText(field(ctx, 'csrf'), cookie)) return csrfRefused(ctx);
    await next();
  };

  const signedIn = async (ctx: Context, next: Next) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    const signed = token ? await service.resume(token) : null;
    if (!signed) {
      if (ctx.method === 'GET' || ctx.method === 'HEAD') return ctx.redirect(`${PORTAL}/sign-in`);
      return page(ctx, 403, messagePage('Signed out', 'Your session has ended. Sign in again.'));
    }
    (ctx.state as PortalState).signed = signed;
    await next();
  };
  const sessionForm = async (ctx: Context, next: Next) => {
    const signed = (ctx.state as PortalState).signed!;
    if (!sameText(field(ctx, 'csrf'), signed.session.csrf)) return csrfRefused(ctx);
    await next();
  };

  router.get('/assets/style.css', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = 'text/css; charset=utf-8';
    ctx.body = STYLE_CSS;
  });
  router.get('/assets/copy.js', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = COPY_JS;
  });

  router.get('/sign-in', (ctx) => page(ctx, 200, signInPage(formToken(ctx))));
  router.post('/sign-in', checkedPost, anonymousForm, async (ctx) => {
    const email = field(ctx, 'email');
    const result = await service.signIn(email, field(ctx, 'password'), client(ctx), ctx.cookies.get(DEVICE_COOKIE));
    if (result.outcome === 'signed-in') {
      setCookie(ctx, SESSION_COOKIE, result.token, SESSION_IDLE_SECONDS);
      setCookie(ctx, DEVICE_COOKIE, result.device, DEVICE_DAYS * 86400);
      ctx.status = 303;
      return ctx.redirect(`${PORTAL}/keys`);
    }
    if (result.outcome === 'throttled') {
      ctx.set('Retry-After', String(result.retryAfterSeconds));
      const minutes = Math.ceil(result.retryAfterSeconds / 60);
      return page(
        ctx,
        429,
        signInPage(formToken(ctx), { email, error: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` }),
      );
    }
    page(ctx, 401, signInPage(formToken(ctx), { email, error: 'The email or password is not right, or the account is disabled.' }));
  });

  router.get('/sign-up', (ctx) => page(ctx, 200, signUpPage(formToken(ctx))));
  router.post('/sign-up', checkedPost, anonymousForm, async (ctx) => {
    const email = field(ctx, 'email');
    const result = await service.signUp(email, field(ctx, 'password'), client(ctx));
    if (result.outcome === 'invalid') return page(ctx, 400, signUpPage(formToken(ctx), { email, error: result.message, field: result.field }));
    if (result.outcome === 'throttled') {
      ctx.set('Retry-After', String(result.retryAfterSeconds));
      return page(ctx, 429, signUpPage(formToken(ctx), { email, error: 'Too many accounts were created from your network. Try again later.' }));
    }
    // The same answer whether or not the email was registered already (no account enumeration).
    page(
      ctx,
      200,
      signInPage(formToken(ctx), {
        email,
        notice: 'Done. If this email was not registered yet, its account is ready: sign in below. If it was, nothing changed.',
      }),
    );
  });

  router.post('/sign-out', signedIn, checkedPost, sessionForm, async (ctx) => {
    await service.signOut(ctx.cookies.get(SESSION_COOKIE)!);
    setCookie(ctx, SESSION_COOKIE, null, 0);
    ctx.status = 303;
    ctx.redirect(`${PORTAL}/sign-in`);
  });

  const signedOf = (ctx: Context) => (ctx.state as PortalState).signed!;
  const sessionToken = (ctx: Context) => ctx.cookies.get(SESSION_COOKIE)!;
  const renderKeys = async (ctx: Context, status: number, state: KeysPageState = {}) => {
    const signed = signedOf(ctx);
    const [list, formId] = await Promise.all([keys.listAccountKeys(signed.account.accountId), service.issueForm(sessionToken(ctx))]);
    page(ctx, status, keysPage(account(signed), list, { formId, accountId: signed.account.accountId }, state));
  };
  // Post, then redirect: what a key form did is handed to the page it redirects to, which shows
  // it once, so a reload shows the list and makes nothing. A form id used before (a double click,
  // a resubmitted form) acts not again and goes the same way.
  const KEYS_DONE = `${PORTAL}/keys/done`;
  const handOff = async (ctx: Context, state: KeysPageState) => {
    await service.handOff(sessionToken(ctx), state);
    ctx.status = 303;
    ctx.redirect(KEYS_DONE);
  };
  const onceOnly = async (ctx: Context, next: Next) => {
    if (!(await service.useForm(sessionToken(ctx), field(ctx, 'form')))) {
      ctx.status = 303;
      return ctx.redirect(KEYS_DONE);
    }
    await next();
  };

  router.get('/keys', signedIn, (ctx) => renderKeys(ctx, 200));
  router.get('/keys/done', signedIn, async (ctx) => {
    const state = await service.takeHandOff<KeysPageState>(sessionToken(ctx));
    if (!state) return ctx.redirect(`${PORTAL}/keys`);
    await renderKeys(ctx, 200, state);
  });
  router.post('/keys', signedIn, checkedPost, sessionForm, onceOnly, async (ctx) => {
    const name = field(ctx, 'name').normalize('NFC').trim();
    if (name.length < 1 || name.length > 64 || hasInvisible(name)) {
      return handOff(ctx, { error: 'Give the key a name of 1 to 64 visible characters.' });
    }
    const created = await keys.createAccountKey(signedOf(ctx).account.accountId, name);
    await handOff(ctx, { shown: { ...created, name } });
  });
  router.post('/keys/:keyId/revoke', signedIn, checkedPost, sessionForm, onceOnly, async (ctx) => {
    const keyId = ctx.params['keyId'] ?? '';
    const done = KEY_ID.test(keyId) && (await keys.revokeAccountKey(signedOf(ctx).account.accountId, keyId));
    if (!done) return handOff(ctx, { error: 'There is no such key on this account.' });
    await handOff(ctx, { notice: `Key ${keyId} is revoked: requests with it now get 403.` });
  });
  router.post('/keys/:keyId/rotate', signedIn, checkedPost, sessionForm, onceOnly, async (ctx) => {
    const keyId = ctx.params['keyId'] ?? '';
    const graceText = field(ctx, 'grace');
    const grace = /^\d{1,6}$/.test(graceText) ? Number(graceText) : NaN;
    if (!(grace >= 0 && grace <= MAX_ROTATION_GRACE_SECONDS)) {
      return handOff(ctx, { error: `Choose a grace period of 0 to ${MAX_ROTATION_GRACE_SECONDS / 3600} hours.` });
    }
    const rotated = KEY_ID.test(keyId) ? await keys.rotateAccountKey(signedOf(ctx).account.accountId, keyId, grace) : null;
    if (!rotated) return handOff(ctx, { error: 'There is no such active key on this account.' });
    await handOff(ctx, {
      shown: { apiKey: rotated.apiKey, keyId: rotated.keyId, name: rotated.name, oldKeyId: keyId, oldExpiresAt: rotated.expiresAt },
    });
  });

  router.get('/usage', signedIn, async (ctx) => {
    const signed = (ctx.state as PortalState).signed!;
    const [reading, hours] = await Promise.all([quota(signed.account.accountId), keys.hourlyUsage(signed.account.accountId)]);
    const usage = reading && {
      limit: reading.limit,
      remaining: reading.remaining,
      resetSeconds: Math.max(0, Math.ceil((reading.resetMs - reading.nowMs) / 1000)),
      windowSeconds,
      hours,
    };
    page(ctx, usage ? 200 : 503, usagePage(account(signed), usage));
  });

  // The portal's address itself, outside the prefixed router (which cannot match its bare prefix).
  const entry = createRouter();
  entry.get(PORTAL, (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(ctx.cookies.get(SESSION_COOKIE) ? `${PORTAL}/keys` : `${PORTAL}/sign-in`);
  });
  entry.use(router.routes());
  return entry;
}
