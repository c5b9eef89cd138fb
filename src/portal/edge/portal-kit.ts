import type { Context, Next } from 'koa';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { clientAddress } from '../../http/client-address.js';
import type { PortalService } from '../domain/portal-service.js';
import { SESSION_IDLE_SECONDS, SESSION_LIFETIME_SECONDS } from '../store/session-store.js';
import { readForm } from './form.js';
import { PORTAL, messagePage } from './views.js';

export const SESSION_COOKIE = 'wpc_session';
export const DEVICE_COOKIE = 'wpc_device';
const FORM_COOKIE = 'wpc_form';

export type Signed = NonNullable<Awaited<ReturnType<PortalService['resume']>>>;
interface PortalState {
  signed?: Signed;
  form?: Map<string, string>;
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export interface KitOptions {
  service: PortalService;
  trustProxyHops: number;
  /** See PortalServices.publicOrigins. */
  publicOrigins: readonly string[];
}

/**
 * What every page of the portal is answered with: its cookies, the client's address, the guards
 * a POST passes (same origin, a readable form, a CSRF token; a session where one is needed) and
 * the page renderer. Built once per portal; each page's routes take what they need of it.
 */
export function createPortalKit({ service, trustProxyHops, publicOrigins }: KitOptions) {
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
  const signedOf = (ctx: Context) => (ctx.state as PortalState).signed!;
  const account = (signed: Signed) => ({ account: { name: signed.account.name, tier: signed.account.tier, csrf: signed.session.csrf } });
  const field = (ctx: Context, name: string) => (ctx.state as PortalState).form?.get(name) ?? '';

  // The anonymous forms' token: a random value in a cookie and in the form; a cross-site page can
  // set neither, so a forged sign-in or sign-up fails.
  const formToken = (ctx: Context) => {
    const existing = ctx.cookies.get(FORM_COOKIE);
    if (existing && /^[A-Za-z0-9_-]{32}$/.test(existing)) return existing;
    const token = randomBytes(24).toString('base64url');
    setCookie(ctx, FORM_COOKIE, token, SESSION_IDLE_SECONDS);
    return token;
  };

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
    // The cookie lives as long as the session: the idle time from this request, never past the
    // session's end (it was set once at sign-in, so a busy browser dropped it 8 hours after that).
    const left = Math.floor((signed.session.createdMs + SESSION_LIFETIME_SECONDS * 1000 - Date.now()) / 1000);
    setCookie(ctx, SESSION_COOKIE, token!, Math.min(SESSION_IDLE_SECONDS, left));
    await next();
  };
  const sessionForm = async (ctx: Context, next: Next) => {
    if (!sameText(field(ctx, 'csrf'), signedOf(ctx).session.csrf)) return csrfRefused(ctx);
    await next();
  };

  return { setCookie, client, page, signedOf, account, field, formToken, checkedPost, anonymousForm, signedIn, sessionForm };
}

export type PortalKit = ReturnType<typeof createPortalKit>;
