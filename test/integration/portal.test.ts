import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { USAGE_CAP } from '../../src/access/store/sliding-window-lua.js';
import { createAccountStore } from '../../src/access/store/account-store.js';
import { parseApiKey } from '../../src/access/api-key.js';
import { redisKeys } from '../../src/access/store/redis-keys.js';
import { redisNowMs } from '../support/admission-log.js';
import { THROTTLE } from '../../src/portal/domain/portal-service.js';
import { SESSION_IDLE_SECONDS, SESSION_LIFETIME_SECONDS } from '../../src/portal/store/session-store.js';
import { request, uniqueName } from '../support/harness.js';
import {
  PortalBrowser,
  type PortalPage,
  csrfOf,
  keyIds,
  shownKey,
  signedIn,
  newClientAddress,
  newEmail,
  browserFor,
} from '../support/portal-browser.js';
import { useCatalogue } from './catalogue-context.js';

// One proxy hop is trusted, so each browser here is its own client (its own X-Forwarded-For):
// the per-client throttles of one test never reach another.

describe('the developer portal', function () {
  this.timeout(60_000);
  const ctx = useCatalogue({ trustProxyHops: 1 });
  const browser = (address?: string) => browserFor(ctx.app.url, address);
  // A key form posts, then redirects to the page that shows what it did, once.
  const submitted = async (b: PortalBrowser, posted: Promise<PortalPage>) => {
    const answer = await posted;
    expect(answer.status, 'a key form answers with a redirect').to.equal(303);
    expect(answer.headers.get('location')).to.equal('/portal/keys/done');
    return b.follow(answer);
  };
  const generate = async (b: PortalBrowser, keys: PortalPage, name: string) => submitted(b, b.post('/portal/keys', keys, { name }));
  const wallpapers = (key: string) => request(ctx.app.url, '/v1/wallpapers?per_page=1', { key, contract: false });

  it('when a developer signs up, signs in and generates a key, then the key is shown once and the API answers it with 200', async () => {
    const b = browser();
    const keys = await signedIn(b, newEmail());
    const created = await generate(b, keys, 'rotator');
    expect(created.status).to.equal(200);
    const key = shownKey(created);
    expect(key).to.match(/^wpc_/);
    expect((await wallpapers(key)).status).to.equal(200);
    const listed = await b.get('/portal/keys');
    expect(listed.html).not.to.include(key);
    expect(listed.html).to.include('rotator');
    expect(keyIds(listed)).to.have.length(1);
    expect(listed.html).to.match(/<td>1<\/td>/);
  });

  it('when a key is revoked in the portal, then the next API request with it is 403', async () => {
    const b = browser();
    const keys = await signedIn(b, newEmail());
    const key = shownKey(await generate(b, keys, 'to revoke'));
    expect((await wallpapers(key)).status).to.equal(200);
    const page = await b.get('/portal/keys');
    const revoked = await submitted(b, b.post(`/portal/keys/${keyIds(page)[0]}/revoke`, page, {}));
    expect(revoked.status).to.equal(200);
    expect(revoked.html).to.include('is revoked');
    expect((await wallpapers(key)).status).to.equal(403);
  });

  it('when a key is rotated with a grace period, then both keys work until it ends, and then the old one is 403', async () => {
    const b = browser();
    const keys = await signedIn(b, newEmail());
    const old = shownKey(await generate(b, keys, 'mirror'));
    const page = await b.get('/portal/keys');
    const rotated = await submitted(b, b.post(`/portal/keys/${keyIds(page)[0]}/rotate`, page, { grace: '60' }));
    expect(rotated.status).to.equal(200);
    const fresh = shownKey(rotated);
    expect(fresh).not.to.equal(old);
    expect(rotated.html).to.include('keeps working until');
    expect((await wallpapers(old)).status).to.equal(200);
    expect((await wallpapers(fresh)).status).to.equal(200);
    // The grace ends: its end moved to a moment ago on Redis's clock, rather than waited for.
    const { accountId, hash } = parseApiKey(old)!;
    await ctx.redis.hset(redisKeys.apiKey(accountId, hash), 'expires_at', String((await redisNowMs(ctx.redis)) - 1));
    expect((await wallpapers(old)).status).to.equal(403);
    expect((await wallpapers(fresh)).status).to.equal(200);
  });

  it('when a key rotated out is still in its grace, then its row offers Revoke, and revoking it stops it at once while the new key works', async () => {
    const b = browser();
    const keys = await signedIn(b, newEmail());
    const old = shownKey(await generate(b, keys, 'leaked'));
    const page = await b.get('/portal/keys');
    const [oldId] = keyIds(page);
    const fresh = shownKey(await submitted(b, b.post(`/portal/keys/${oldId}/rotate`, page, { grace: '86400' })));
    const rotated = await b.get('/portal/keys');
    expect(rotated.html, 'the old key`s row').to.include(`action="/portal/keys/${oldId}/revoke"`);
    expect(rotated.html, 'a key rotated out is not rotated again').not.to.include(`action="/portal/keys/${oldId}/rotate"`);
    expect((await wallpapers(old)).status).to.equal(200);
    await submitted(b, b.post(`/portal/keys/${oldId}/revoke`, rotated, {}));
    expect((await wallpapers(old)).status).to.equal(403);
    expect((await wallpapers(fresh)).status).to.equal(200);
    expect((await b.get('/portal/keys')).html, 'nothing left to revoke').not.to.include(`action="/portal/keys/${oldId}/revoke"`);
  });

  it('when a rotation asks for more than 24 hours of grace, then it is refused and nothing changes', async () => {
    const b = browser();
    const keys = await signedIn(b, newEmail());
    const key = shownKey(await generate(b, keys, 'k'));
    const page = await b.get('/portal/keys');
    const refused = await submitted(b, b.post(`/portal/keys/${keyIds(page)[0]}/rotate`, page, { grace: String(24 * 3600 + 1) }));
    expect(refused.html).to.include('role="alert"');
    expect(refused.html).to.include('grace period of 0 to 24 hours');
    expect(keyIds(await b.get('/portal/keys'))).to.have.length(1);
    expect((await wallpapers(key)).status).to.equal(200);
  });

  it('when one account posts to revoke a key of another, then it is refused and the key keeps working', async () => {
    const owner = browser();
    const ownerKeys = await signedIn(owner, newEmail());
    const key = shownKey(await generate(owner, ownerKeys, 'mine'));
    const victimId = keyIds(await owner.get('/portal/keys'))[0]!;
    const other = browser();
    const otherKeys = await signedIn(other, newEmail());
    const refused = await submitted(other, other.post(`/portal/keys/${victimId}/revoke`, otherKeys, {}));
    expect(refused.html).to.include('There is no such key on this account.');
    expect((await wallpapers(key)).status).to.equal(200);
  });

  it('when the keys page or its form is reached by another spelling of the path, then 404 and nothing is shown or made', async () => {
    const b = browser();
    const keys = await signedIn(b, newEmail());
    await generate(b, keys, 'spelled');
    for (const path of ['/Portal/keys', '/PORTAL/keys', '/portal/keys/', '/portal//keys', '/portal/%6Beys', '/portal/keys;x']) {
      const page = await b.get(path);
      expect(page.status, path).to.equal(404);
      expect(page.html, path).not.to.include('spelled');
      const posted = await b.post(path, keys, { name: 'sneaky' });
      expect(posted.status, path).to.be.oneOf([404, 405]);
    }
    expect(keyIds(await b.get('/portal/keys'))).to.have.length(1);
  });

  describe('CSRF', () => {
    it('when a signed-in form comes without the token, with a wrong one, or from another origin, then it is 403 and no key is made', async () => {
      const b = browser();
      const keys = await signedIn(b, newEmail());
      const missing = await b.send('/portal/keys', { form: { name: 'x' } });
      const wrong = await b.send('/portal/keys', { form: { name: 'x', csrf: 'A'.repeat(32) } });
      const crossOrigin = await b.post('/portal/keys', keys, { name: 'x' }, { Origin: 'https://evil.example' });
      const crossSite = await b.post('/portal/keys', keys, { name: 'x' }, { 'Sec-Fetch-Site': 'cross-site' });
      for (const page of [missing, wrong, crossOrigin, crossSite]) {
        expect(page.status).to.equal(403);
        expect(page.html).not.to.include('new-key');
      }
      expect(keyIds(await b.get('/portal/keys'))).to.deep.equal([]);
    });

    it('when a sign-in form comes without the token its cookie matches, then it is 403', async () => {
      const b = browser();
      const address = newEmail();
      await signedIn(b, address);
      const stranger = browser();
      const refused = await stranger.send('/portal/sign-in', {
        form: { email: address, password: 'correct horse battery', csrf: 'forged-token-forged-token-forged' },
      });
      expect(refused.status).to.equal(403);
      expect(refused.setCookies.join()).not.to.include('wpc_session');
    });
  });

  describe('the account page', () => {
    const OLD = 'correct horse battery';
    const NEW = 'a brand new staple horse';
    const signInStatus = async (email: string, password: string) => {
      const b = browser();
      return (await b.post('/portal/sign-in', await b.get('/portal/sign-in'), { email, password })).status;
    };

    it('when the owner changes the password, then the old one no longer signs in, the new one does, other browsers are signed out and this one stays', async () => {
      const email = newEmail();
      const owner = browser();
      await signedIn(owner, email, OLD);
      const other = browser();
      expect((await other.post('/portal/sign-in', await other.get('/portal/sign-in'), { email, password: OLD })).status).to.equal(303);
      const changed = await owner.post('/portal/account/password', await owner.get('/portal/account'), { current: OLD, password: NEW });
      expect(changed.status).to.equal(200);
      expect(changed.html).to.include('Your password is changed, and 1 other browser signed out.');
      expect((await other.get('/portal/keys')).status, 'the other browser').to.equal(302);
      expect((await owner.get('/portal/keys')).status, 'this browser').to.equal(200);
      expect(await signInStatus(email, OLD)).to.equal(401);
      expect(await signInStatus(email, NEW)).to.equal(303);
    });

    it('when the current password is wrong, then 401 and nothing changes; past the tries a window allows, 429', async () => {
      const email = newEmail();
      const owner = browser();
      await signedIn(owner, email, OLD);
      const statuses: number[] = [];
      for (let i = 0; i <= THROTTLE.passwordChangesPerSession; i++) {
        const answer = await owner.post('/portal/account/password', await owner.get('/portal/account'), {
          current: `wrong guess ${i}!!`,
          password: NEW,
        });
        statuses.push(answer.status);
        if (i === 0) expect(answer.html).to.include('The current password is not right.');
      }
      expect(statuses).to.deep.equal([...Array.from({ length: THROTTLE.passwordChangesPerSession }, () => 401), 429]);
      expect(await signInStatus(email, OLD)).to.equal(303);
    });

    /** An account signed in from two browsers: its owner's, and someone else's who knows the password. */
    const ownerAndIntruder = async () => {
      const email = newEmail();
      const [owner, intruder] = [browser(), browser()];
      await signedIn(owner, email, OLD);
      await signedIn(intruder, email, OLD);
      return { email, owner, intruder };
    };

    it('when someone else who knows the password spends the tries of their session, then the owner still changes it', async () => {
      // Counted per account, the tries had let whoever knew the password keep its owner from ever
      // changing it, a wrong current password at a time, each window (helper-109).
      const { owner, intruder } = await ownerAndIntruder();
      const spent: number[] = [];
      for (let i = 0; i <= THROTTLE.passwordChangesPerSession; i++) {
        const answer = await intruder.post('/portal/account/password', await intruder.get('/portal/account'), {
          current: `wrong ${i}!!`,
          password: NEW,
        });
        spent.push(answer.status);
      }
      expect(spent.at(-1)).to.equal(429);
      const changed = await owner.post('/portal/account/password', await owner.get('/portal/account'), { current: OLD, password: NEW });
      expect(changed.status).to.equal(200);
      expect((await intruder.get('/portal/keys')).status, 'the intruder is signed out').to.equal(302);
    });

    it('when the password changes, then browsers that knew the old one are strangers again under the account`s lockout, and this one is still known', async () => {
      // A device cookie from before had kept a lockout of its own: ten guesses a cookie through a
      // locked account (helper-109).
      const { email, owner, intruder } = await ownerAndIntruder();
      expect((await owner.post('/portal/account/password', await owner.get('/portal/account'), { current: OLD, password: NEW })).status).to.equal(
        200,
      );
      const guesser = browser();
      for (let i = 0; i < THROTTLE.perAccount; i++) {
        expect(
          (await guesser.post('/portal/sign-in', await guesser.get('/portal/sign-in'), { email, password: `guess ${i} horse` })).status,
        ).to.equal(401);
      }
      const locked = await intruder.post('/portal/sign-in', await intruder.get('/portal/sign-in'), { email, password: 'another guess horse' });
      expect(locked.status, 'a browser known before the change').to.equal(429);
      await owner.post('/portal/sign-out', await owner.get('/portal/account'), {});
      const back = await owner.post('/portal/sign-in', await owner.get('/portal/sign-in'), { email, password: NEW });
      expect(back.status, 'the browser that changed it').to.equal(303);
    });

    it('when the new password breaks the rules, then 400 says which, and nothing changes', async () => {
      const email = newEmail();
      const owner = browser();
      await signedIn(owner, email, OLD);
      const refused = await owner.post('/portal/account/password', await owner.get('/portal/account'), { current: OLD, password: 'short' });
      expect(refused.status).to.equal(400);
      expect(refused.html).to.match(/id="password-error"/);
      expect(await signInStatus(email, OLD)).to.equal(303);
    });

    it('when the owner signs out everywhere else, then the other browsers are signed out and this one stays; without the form`s token, nothing happens', async () => {
      const email = newEmail();
      const owner = browser();
      await signedIn(owner, email, OLD);
      const others = [browser(), browser()];
      for (const b of others) await b.post('/portal/sign-in', await b.get('/portal/sign-in'), { email, password: OLD });
      const forged = await owner.send('/portal/account/sign-out-others', { form: { csrf: 'A'.repeat(32) } });
      expect(forged.status).to.equal(403);
      expect((await others[0]!.get('/portal/keys')).status, 'not signed out by a forged form').to.equal(200);
      const done = await owner.post('/portal/account/sign-out-others', await owner.get('/portal/account'), {});
      expect(done.html).to.include('2 other browsers signed out; this one stays signed in.');
      for (const b of others) expect((await b.get('/portal/keys')).status).to.equal(302);
      expect((await owner.get('/portal/keys')).status).to.equal(200);
    });
  });

  describe('sign-in', () => {
    it('when one account fails its password too often, then further sign-ins are 429 with Retry-After, even with the right password', async () => {
      const address = newEmail();
      await signedIn(browser(), address);
      for (let i = 0; i < THROTTLE.perAccount; i++) {
        const b = browser();
        expect((await b.post('/portal/sign-in', await b.get('/portal/sign-in'), { email: address, password: 'wrong password!' })).status).to.equal(
          401,
        );
      }
      const b = browser();
      const throttled = await b.post('/portal/sign-in', await b.get('/portal/sign-in'), { email: address, password: 'correct horse battery' });
      expect(throttled.status).to.equal(429);
      expect(Number(throttled.headers.get('Retry-After'))).to.be.within(1, THROTTLE.windowSeconds);
      expect(throttled.html).to.include('Too many failed sign-ins');
    });

    it('when one client fails with many emails, then it is throttled, and another client is not', async () => {
      const address = newClientAddress();
      const b = browser(address);
      const form = await b.get('/portal/sign-in');
      for (let i = 0; i < THROTTLE.perClient; i++)
        expect((await b.post('/portal/sign-in', form, { email: newEmail(), password: 'not it at all' })).status).to.equal(401);
      expect((await b.post('/portal/sign-in', form, { email: newEmail(), password: 'not it at all' })).status).to.equal(429);
      const other = browser();
      expect(
        (await other.post('/portal/sign-in', await other.get('/portal/sign-in'), { email: newEmail(), password: 'not it at all' })).status,
      ).to.equal(401);
    });

    it('when the email is unknown or the password wrong, then the answers are the same and both cost a password hash', async () => {
      const known = newEmail();
      await signedIn(browser(), known);
      const attempt = async (address: string) => {
        const b = browser();
        const form = await b.get('/portal/sign-in');
        const started = performance.now();
        const page = await b.post('/portal/sign-in', form, { email: address, password: 'wrong password!' });
        return { page, ms: performance.now() - started };
      };
      const unknownEmail = `${uniqueName('nobody')}@example.com`;
      const wrongPassword = await attempt(known);
      const noAccount = await attempt(unknownEmail);
      expect(noAccount.page.status).to.equal(wrongPassword.page.status);
      const sameness = ({ html }: PortalPage, address: string) => html.replace(address, 'E').replace(/name="csrf" value="[^"]*"/, 'T');
      expect(sameness(noAccount.page, unknownEmail)).to.equal(sameness(wrongPassword.page, known));
      // A lookup alone takes a few ms; a scrypt hash at these settings takes tens of ms or more.
      expect(noAccount.ms).to.be.greaterThan(30);
      expect(wrongPassword.ms).to.be.greaterThan(30);
    });

    it('when an email that is already registered signs up again, then the answer is the same as for a new one and the password is unchanged', async () => {
      const taken = newEmail();
      await signedIn(browser(), taken, 'the first password');
      const again = browser();
      const repeat = await again.post('/portal/sign-up', await again.get('/portal/sign-up'), { email: taken, password: 'a second password' });
      const fresh = browser();
      const freshEmail = newEmail();
      const first = await fresh.post('/portal/sign-up', await fresh.get('/portal/sign-up'), { email: freshEmail, password: 'a second password' });
      expect(repeat.status).to.equal(first.status);
      expect(repeat.html.replace(taken, 'E').replace(csrfOf(repeat), 'T')).to.equal(first.html.replace(freshEmail, 'E').replace(csrfOf(first), 'T'));
      const b = browser();
      expect((await b.post('/portal/sign-in', await b.get('/portal/sign-in'), { email: taken, password: 'a second password' })).status).to.equal(401);
      expect((await b.post('/portal/sign-in', await b.get('/portal/sign-in'), { email: taken, password: 'the first password' })).status).to.equal(
        303,
      );
    });

    it('when sign-up gets a bad email or a short password, then 400 names the field', async () => {
      const b = browser();
      const form = await b.get('/portal/sign-up');
      const badEmail = await b.post('/portal/sign-up', form, { email: 'not-an-email', password: 'long enough password' });
      expect(badEmail.status).to.equal(400);
      expect(badEmail.html).to.include('id="email-error"');
      const shortPassword = await b.post('/portal/sign-up', form, { email: newEmail(), password: 'short' });
      expect(shortPassword.status).to.equal(400);
      expect(shortPassword.html).to.include('id="password-error"');
    });
  });

  it('when a key is named <script>, then the page shows it escaped', async () => {
    const b = browser();
    const keys = await signedIn(b, newEmail());
    await generate(b, keys, '<script>alert(1)</script>');
    const page = await b.get('/portal/keys');
    expect(page.html).to.include('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.html).not.to.include('<script>alert');
  });

  it('when the usage page is read after some requests, then its numbers agree with the API rate-limit headers', async () => {
    const b = browser();
    const keys = await signedIn(b, newEmail());
    const key = shownKey(await generate(b, keys, 'counter'));
    await wallpapers(key);
    await wallpapers(key);
    const last = await wallpapers(key);
    const usage = await b.get('/portal/usage');
    expect(usage.status).to.equal(200);
    const figure = (id: string) => Number(new RegExp(`id="${id}">(\\d+)`).exec(usage.html)?.[1]);
    expect(figure('limit')).to.equal(Number(last.headers.get('X-RateLimit-Limit')));
    expect(figure('remaining')).to.equal(Number(last.headers.get('X-RateLimit-Remaining')));
    expect(figure('used')).to.equal(3);
    expect(usage.html).to.match(/<svg\s+class="chart"/);
    expect(usage.html).to.include('3 requests in total');
  });

  it(`when the usage page is read more than ${USAGE_CAP.reads} times a minute, then 429 says when to reload, as /v1/usage would`, async () => {
    const b = browser();
    await signedIn(b, newEmail());
    for (let i = 0; i < USAGE_CAP.reads; i++) expect((await b.get('/portal/usage')).status, `read ${i + 1}`).to.equal(200);
    const capped = await b.get('/portal/usage');
    expect(capped.status).to.equal(429);
    const wait = Number(capped.headers.get('retry-after'));
    expect(wait).to.be.within(1, 60);
    expect(capped.html).to.include(`Usage is read at most ${USAGE_CAP.reads} times a minute. Please reload in ${wait} s.`);
  });

  it('when an operator disables the account, then its keys are 403 and it cannot sign in; enabled again, both work', async () => {
    const address = newEmail();
    const b = browser();
    const keys = await signedIn(b, address);
    const key = shownKey(await generate(b, keys, 'k'));
    const accounts = createAccountStore(ctx.redis);
    const accountId = (await accounts.byName(address))!.accountId;
    await accounts.setDisabled({ id: accountId }, true);
    expect((await wallpapers(key)).status).to.equal(403);
    expect((await b.get('/portal/keys')).status).to.equal(302);
    const again = browser();
    expect(
      (await again.post('/portal/sign-in', await again.get('/portal/sign-in'), { email: address, password: 'correct horse battery' })).status,
    ).to.equal(401);
    await accounts.setDisabled({ id: accountId }, false);
    expect((await wallpapers(key)).status).to.equal(200);
  });

  describe('cookies and headers', () => {
    it('when signed in over plain HTTP, then the session cookie is HttpOnly, SameSite=Lax, scoped to /portal and not Secure', async () => {
      const b = browser();
      const form = await b.get('/portal/sign-up');
      const address = newEmail();
      await b.post('/portal/sign-up', form, { email: address, password: 'correct horse battery' });
      const done = await b.post('/portal/sign-in', await b.get('/portal/sign-in'), { email: address, password: 'correct horse battery' });
      const cookie = done.setCookies.find((c) => c.startsWith('wpc_session='))!;
      expect(cookie)
        .to.match(/httponly/i)
        .and.match(/samesite=lax/i)
        .and.match(/path=\/portal/i);
      expect(cookie).not.to.match(/secure/i);
    });

    it('when a signed-in page is read, then the session cookie is set again to live the idle time from now, and never past the session`s end', async () => {
      const b = browser();
      await signedIn(b, newEmail());
      const page = await b.get('/portal/keys');
      // Koa writes a cookie's lifetime as Expires, to the second.
      const lifetime = (answer: PortalPage) =>
        (Date.parse(/expires=([^;]+)/i.exec(answer.setCookies.find((c) => c.startsWith('wpc_session=')) ?? '')?.[1] ?? '') - Date.now()) / 1000;
      expect(lifetime(page)).to.be.within(SESSION_IDLE_SECONDS - 5, SESSION_IDLE_SECONDS + 1);
      const token = b.cookie('wpc_session')!;
      const record = `wpc:session:${createHash('sha256').update(token).digest('hex')}`;
      await ctx.redis.hset(record, 'created_at', new Date(Date.now() - SESSION_LIFETIME_SECONDS * 1000 + 3600_000).toISOString());
      const late = await b.get('/portal/keys');
      expect(lifetime(late), 'an hour before the session ends').to.be.within(3595, 3601);
    });

    it('when the trusted proxy says the browser came over TLS, then the cookie is Secure', async () => {
      const b = browser();
      const page = await b.send('/portal/sign-in', { headers: { 'X-Forwarded-Proto': 'https' } });
      expect(page.setCookies.join()).to.match(/secure/i);
    });

    it('when portal pages are served, then they carry a Content-Security-Policy and no CORS headers', async () => {
      const page = await browser().send('/portal/sign-in', { headers: { Origin: 'https://elsewhere.example' } });
      expect(page.headers.get('Content-Security-Policy')).to.include("default-src 'none'");
      expect(page.headers.get('Access-Control-Allow-Origin')).to.equal(null);
      expect(page.headers.get('Cache-Control')).to.equal('no-store');
    });

    it('when the portal`s address or a path it has no page for is asked, then the answer is the portal`s, without CORS headers', async () => {
      for (const [path, status] of [
        ['/portal', 302],
        ['/portal/nope', 404],
        ['/portal/keys/', 404],
      ] as const) {
        const page = await browser().send(path, { headers: { Origin: 'https://elsewhere.example' } });
        expect(page.status, path).to.equal(status);
        expect(page.headers.get('Access-Control-Allow-Origin'), path).to.equal(null);
        expect(page.headers.get('Access-Control-Expose-Headers'), path).to.equal(null);
        expect(page.headers.get('Content-Security-Policy'), path).to.include("default-src 'none'");
      }
      const preflight = { 'Access-Control-Request-Method': 'POST', Origin: 'https://elsewhere.example' };
      for (const [path, method, status] of [
        ['/portal/keys', 'OPTIONS', 200],
        ['/portal/nope', 'OPTIONS', 404],
        ['/portal/keys', 'PUT', 405],
        ['/portal/sign-in', 'PROPFIND', 405],
        ['/portal/nope', 'PROPFIND', 404],
      ] as const) {
        const page = await browser().send(path, { method, headers: preflight });
        expect(page.status, `${method} ${path}`).to.equal(status);
        expect(page.headers.get('Access-Control-Allow-Origin'), `${method} ${path}`).to.equal(null);
        expect(page.headers.get('Access-Control-Allow-Methods'), `${method} ${path}`).to.equal(null);
        if (status !== 200) expect(page.headers.get('Content-Type'), `${method} ${path}`).to.match(/^text\/html/);
        if (status === 404) expect(page.headers.get('Allow'), `${method} ${path}`).to.equal(null);
      }
      const api = await request(ctx.app.url, '/v1/nope', { headers: { Origin: 'https://elsewhere.example' } });
      expect(api.headers.get('Access-Control-Allow-Origin'), 'the API keeps its policy').to.equal('*');
      const apiPreflight = await request(ctx.app.url, '/v1/wallpapers', { method: 'OPTIONS', headers: preflight, contract: false });
      expect(apiPreflight.headers.get('Access-Control-Allow-Origin'), 'and answers its preflights').to.equal('*');
    });

    it('when a signed-in developer asks for a portal path it has no page for, then the 404 page still shows them signed in', async () => {
      const b = browser();
      await signedIn(b, newEmail());
      const page = await b.get('/portal/nope');
      expect(page.status).to.equal(404);
      expect(page.html).to.include('Sign out');
    });
  });
});

describe('the developer portal behind no proxy', function () {
  this.timeout(30_000);
  const ctx = useCatalogue();

  it('when a client forges X-Forwarded-Proto, then the cookie is still not Secure', async () => {
    const page = await new PortalBrowser(ctx.app.url).send('/portal/sign-in', { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(page.setCookies.join()).not.to.match(/secure/i);
  });
});
