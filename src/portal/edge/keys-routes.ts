import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { KeysBusy, MAX_ROTATION_GRACE_SECONDS, MAX_WORKING_KEYS, TooManyKeys } from '../../access/store/key-store.js';
import { hasInvisible } from '../../infra/visible-text.js';
import type { PortalKeys, PortalService } from '../domain/portal-service.js';
import { type PortalKit, SESSION_COOKIE } from './portal-kit.js';
import { type KeysPageState, PORTAL, keysPage } from './views.js';

const KEY_ID = /^key_[0-9A-Za-z]{12}$/;
const KEYS_DONE = `${PORTAL}/keys/done`;

/** The key made, or what the page says when the account may not have one now (any other failure is thrown). */
async function orRefusal<T>(making: Promise<T>, { withGrace }: { withGrace: boolean }): Promise<T | string> {
  try {
    return await making;
  } catch (err) {
    if (err instanceof TooManyKeys) {
      return `This account has ${MAX_WORKING_KEYS} working keys, the most it may hold: revoke one first${withGrace ? ', or rotate with no grace period' : ''}.`;
    }
    if (err instanceof KeysBusy) return 'Another change to this account’s keys is being made. Try again in a moment.';
    throw err;
  }
}

/**
 * The API Keys page: the account's keys, and generate, revoke and rotate. Post, then redirect:
 * what a key form did is handed to the page it redirects to, which shows it once, so a reload
 * shows the list and makes nothing. A form id used before (a double click, a resubmitted form)
 * acts not again and goes the same way.
 */
export function keysRoutes(router: Router, kit: PortalKit, { service, keys }: { service: PortalService; keys: PortalKeys }): void {
  const { page, field, account, signedOf, checkedPost, signedIn, sessionForm } = kit;
  const sessionToken = (ctx: Context) => ctx.cookies.get(SESSION_COOKIE)!;

  const renderKeys = async (ctx: Context, status: number, state: KeysPageState = {}) => {
    const signed = signedOf(ctx);
    const [list, formId] = await Promise.all([keys.listAccountKeys(signed.account.accountId), service.issueForm(sessionToken(ctx))]);
    page(ctx, status, keysPage(account(signed), list, { formId, accountId: signed.account.accountId }, state));
  };
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
  const keyForm = [signedIn, checkedPost, sessionForm, onceOnly];

  router.get('/keys', signedIn, (ctx) => renderKeys(ctx, 200));
  router.get('/keys/done', signedIn, async (ctx) => {
    // A HEAD (the router answers it with this route) must not take the key shown once from the GET
    // that follows (helper-96): it is told what the page is, and nothing is read.
    if (ctx.method === 'HEAD') return page(ctx, 200, '');
    const state = await service.takeHandOff<KeysPageState>(sessionToken(ctx));
    if (!state) return ctx.redirect(`${PORTAL}/keys`);
    await renderKeys(ctx, 200, state);
  });
  router.post('/keys', ...keyForm, async (ctx) => {
    const name = field(ctx, 'name').normalize('NFC').trim();
    // Counted in characters (code points), as the page says: `length` counts an emoji as two.
    const characters = [...name].length;
    if (characters < 1 || characters > 64 || hasInvisible(name)) {
      return handOff(ctx, { error: 'Give the key a name of 1 to 64 visible characters.' });
    }
    const created = await orRefusal(keys.createAccountKey(signedOf(ctx).account.accountId, name), { withGrace: false });
    if (typeof created === 'string') return handOff(ctx, { error: created });
    await handOff(ctx, { shown: { ...created, name } });
  });
  router.post('/keys/:keyId/revoke', ...keyForm, async (ctx) => {
    const keyId = ctx.params['keyId'] ?? '';
    const done = KEY_ID.test(keyId) && (await keys.revokeAccountKey(signedOf(ctx).account.accountId, keyId));
    if (!done) return handOff(ctx, { error: 'There is no such key on this account.' });
    await handOff(ctx, { notice: `Key ${keyId} is revoked: requests with it now get 403.` });
  });
  router.post('/keys/:keyId/rotate', ...keyForm, async (ctx) => {
    const keyId = ctx.params['keyId'] ?? '';
    const graceText = field(ctx, 'grace');
    const grace = /^\d{1,6}$/.test(graceText) ? Number(graceText) : NaN;
    if (!(grace >= 0 && grace <= MAX_ROTATION_GRACE_SECONDS)) {
      return handOff(ctx, { error: `Choose a grace period of 0 to ${MAX_ROTATION_GRACE_SECONDS / 3600} hours.` });
    }
    const rotated = KEY_ID.test(keyId)
      ? await orRefusal(keys.rotateAccountKey(signedOf(ctx).account.accountId, keyId, grace), { withGrace: grace > 0 })
      : null;
    if (typeof rotated === 'string') return handOff(ctx, { error: rotated });
    if (!rotated) return handOff(ctx, { error: 'There is no such active key on this account.' });
    await handOff(ctx, {
      shown: { apiKey: rotated.apiKey, keyId: rotated.keyId, name: rotated.name, oldKeyId: keyId, oldExpiresAt: rotated.expiresAt },
    });
  });
}
