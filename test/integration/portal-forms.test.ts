import { expect } from 'chai';
import { randomInt } from 'node:crypto';
import { createAccountStore } from '../../src/access/store/account-store.js';
import { MAX_WORKING_KEYS } from '../../src/access/store/key-store.js';
import { uniqueName } from '../support/harness.js';
import { type PortalBrowser, type PortalPage, keyIds, shownKey, signedIn, newEmail, browserFor } from '../support/portal-browser.js';
import { useCatalogue } from './catalogue-context.js';

const PASSWORD = 'correct horse battery';

describe('the portal`s forms', function () {
  this.timeout(60_000);
  const ctx = useCatalogue({ trustProxyHops: 1 });
  const browser = (address?: string) => browserFor(ctx.app.url, address);
  const signUp = async (b: PortalBrowser, address: string, password = PASSWORD) =>
    b.post('/portal/sign-up', await b.get('/portal/sign-up'), { email: address, password });
  const signIn = async (b: PortalBrowser, address: string, password = PASSWORD) =>
    (await b.post('/portal/sign-in', await b.get('/portal/sign-in'), { email: address, password })).status;

  describe('post, then redirect', () => {
    it('when a key is generated and the page that shows it is reloaded, then the key is not shown again and no second key is made', async () => {
      const b = browser();
      const keys = await signedIn(b, newEmail());
      const posted = await b.post('/portal/keys', keys, { name: 'once' });
      expect(posted.status).to.equal(303);
      const shown = await b.follow(posted);
      expect(shownKey(shown)).to.match(/^wpc_/);
      const reloaded = await b.get('/portal/keys/done');
      expect(reloaded.status).to.equal(302);
      expect(reloaded.headers.get('location')).to.equal('/portal/keys');
      expect(keyIds(await b.get('/portal/keys'))).to.have.length(1);
    });

    it('when the page that shows a new key is asked with HEAD first, then the GET that follows still shows the key', async () => {
      const b = browser();
      const posted = await b.post('/portal/keys', await signedIn(b, newEmail()), { name: 'checked first' });
      const head = await b.send('/portal/keys/done', { method: 'HEAD' });
      expect(head.status).to.equal(200);
      expect(shownKey(await b.follow(posted))).to.match(/^wpc_/);
    });

    it(`when an account holds ${MAX_WORKING_KEYS} working keys, then generating another says why and makes none`, async () => {
      const b = browser();
      await signedIn(b, newEmail());
      for (let i = 0; i < MAX_WORKING_KEYS; i++) await b.follow(await b.post('/portal/keys', await b.get('/portal/keys'), { name: `key ${i}` }));
      const refused = await b.follow(await b.post('/portal/keys', await b.get('/portal/keys'), { name: 'one too many' }));
      expect(refused.status).to.equal(200);
      expect(refused.html).to.include(`This account has ${MAX_WORKING_KEYS} working keys, the most it may hold: revoke one first.`);
      expect(refused.html).not.to.include('id="new-key"');
      expect(keyIds(await b.get('/portal/keys'))).to.have.length(MAX_WORKING_KEYS);
    });

    it('when the same generate form is posted twice at once, then one key is made', async () => {
      const b = browser();
      const keys = await signedIn(b, newEmail());
      const [first, second] = await Promise.all([b.post('/portal/keys', keys, { name: 'double' }), b.post('/portal/keys', keys, { name: 'double' })]);
      expect([first.status, second.status]).to.deep.equal([303, 303]);
      expect(keyIds(await b.get('/portal/keys'))).to.have.length(1);
    });

    it('when a rotate form is posted again after it acted, then nothing more is rotated', async () => {
      const b = browser();
      const keys = await signedIn(b, newEmail());
      await b.follow(await b.post('/portal/keys', keys, { name: 'rotated once' }));
      const page = await b.get('/portal/keys');
      const keyId = keyIds(page)[0]!;
      await b.follow(await b.post(`/portal/keys/${keyId}/rotate`, page, { grace: '3600' }));
      const again = await b.follow(await b.post(`/portal/keys/${keyId}/rotate`, page, { grace: '3600' }));
      expect(again.html).not.to.include('id="new-key"');
      expect(keyIds(await b.get('/portal/keys'))).to.have.length(2);
    });

    it('when the page that shows a new key is asked by other spellings of its path, then 404 and the key stays for the real one', async () => {
      const b = browser();
      const posted = await b.post('/portal/keys', await signedIn(b, newEmail()), { name: 'spelled' });
      for (const path of [
        '/Portal/keys/done',
        '/portal/keys/done/',
        '/portal/keys//done',
        '/portal/keys/%64one',
        '/portal/keys/done;x',
        '/portal//keys/done',
      ]) {
        const page = await b.get(path);
        expect(page.status, path).to.equal(404);
        expect(page.html, path).not.to.include('id="new-key"');
      }
      expect(shownKey(await b.follow(posted))).to.match(/^wpc_/);
    });

    it('when the handed-off page is read with another session, then it shows nothing of the first', async () => {
      const b = browser();
      await b.follow(await b.post('/portal/keys', await signedIn(b, newEmail()), { name: 'mine' }));
      const other = browser();
      await signedIn(other, newEmail());
      const page: PortalPage = await other.get('/portal/keys/done');
      expect(page.status).to.equal(302);
    });
  });

  describe('emails that look alike', () => {
    it('when café@ is registered composed (NFC) and then decomposed (NFD), then it is one account, and either spelling signs in', async () => {
      const local = uniqueName('caf');
      const composed = `${local}\u00e9@example.com`;
      const decomposed = `${local}e\u0301@example.com`;
      await signUp(browser(), composed);
      await signUp(browser(), decomposed, 'a different password here');
      expect(await signIn(browser(), decomposed)).to.equal(303);
      expect(await signIn(browser(), composed, 'a different password here')).to.equal(401);
      expect(await createAccountStore(ctx.redis).byName(decomposed.normalize('NFKC'))).to.not.equal(null);
    });

    for (const [what, address] of [
      ['a zero-width space', `dev\u200b${randomInt(1e9)}@example.com`],
      ['a right-to-left override', `dev\u202e${randomInt(1e9)}@example.com`],
      ['a control character', `dev\u0007${randomInt(1e9)}@example.com`],
    ]) {
      it(`when an email holds ${what}, then sign-up refuses it as not an address`, async () => {
        const refused = await signUp(browser(), address!);
        expect(refused.status).to.equal(400);
        expect(refused.html).to.include('Enter an email address');
      });
    }

    it('when an email mixes a Cyrillic letter into Latin ones (аlice beside alice), then sign-up refuses it, saying why, and makes no account', async () => {
      const address = `\u0430lice${randomInt(1e9)}@example.com`;
      const refused = await signUp(browser(), address);
      expect(refused.status).to.equal(400);
      expect(refused.html).to.include('may not mix Latin, Cyrillic and Greek letters');
      expect(await createAccountStore(ctx.redis).byName(address)).to.equal(null);
    });

    it('when a key is named with 64 characters that are two UTF-16 units each, then it is made; with 65, refused', async () => {
      const b = browser();
      const keys = await signedIn(b, newEmail());
      const made = await b.follow(await b.post('/portal/keys', keys, { name: '🌄'.repeat(64) }));
      expect(shownKey(made)).to.match(/^wpc_/);
      expect(made.html, 'kept whole').to.include(`<td>${'🌄'.repeat(64)}</td>`);
      const refused = await b.follow(await b.post('/portal/keys', made, { name: '🌄'.repeat(65) }));
      expect(refused.html).to.include('1 to 64 visible characters');
      expect(keyIds(await b.get('/portal/keys'))).to.have.length(1);
    });

    it('when a key name holds control or invisible characters, then it is refused and no key is made', async () => {
      const b = browser();
      const keys = await signedIn(b, newEmail());
      const refused = await b.follow(await b.post('/portal/keys', keys, { name: 'rotator\u001b]0;owned\u0007' }));
      expect(refused.html).to.include('visible characters');
      expect(keyIds(await b.get('/portal/keys'))).to.deep.equal([]);
    });
  });

  describe('passwords', () => {
    for (const weak of ['aaaaaaaaaa', 'aaaaaaaaaaaaaaaaaaaa', 'password12345678', 'qwertyuiopasdfgh']) {
      it(`when sign-up is asked for the password ${JSON.stringify(weak)}, then it is refused and no account is made`, async () => {
        const address = newEmail();
        const refused = await signUp(browser(), address, weak);
        expect(refused.status).to.equal(400);
        expect(refused.html).to.include('id="password-error"');
        expect(await createAccountStore(ctx.redis).byName(address)).to.equal(null);
      });
    }

    it('when the right password is followed by anything more (past 128 characters or not), then sign-in refuses it', async () => {
      const address = newEmail();
      const long = `${'granite kettle orbit '.repeat(7)}end`;
      expect(long.length).to.be.above(128);
      await signUp(browser(), address, long);
      expect(await signIn(browser(), address, long)).to.equal(303);
      expect(await signIn(browser(), address, `${long}x`)).to.equal(401);
      expect(await signIn(browser(), address, `${long.slice(0, 128)}anything else entirely`)).to.equal(401);
    });
  });

  describe('origins', () => {
    it('when a form comes from another origin that also sends its own Host header, then it is refused: the connection`s address decides, not the Host', async () => {
      const b = browser();
      const keys = await signedIn(b, newEmail());
      const forged = await b.post('/portal/keys', keys, { name: 'x' }, { Host: 'evil.example', Origin: 'http://evil.example' });
      expect(forged.status).to.equal(403);
      const own = await b.post('/portal/keys', keys, { name: 'x' }, { Origin: ctx.app.url });
      expect(own.status).to.equal(303);
    });
  });
});
