import { expect } from 'chai';
import { THROTTLE } from '../../src/portal/domain/portal-service.js';
import { testConfig } from '../support/harness.js';
import { type PortalBrowser, signedIn, newEmail, browserFor } from '../support/portal-browser.js';
import { useCatalogue } from './catalogue-context.js';

const PASSWORD = 'correct horse battery';

describe('the portal under guessing', function () {
  this.timeout(120_000);

  describe('with room for every hash (the throttles alone decide)', () => {
    const ctx = useCatalogue({ trustProxyHops: 1, portal: { ...testConfig().portal, hashConcurrency: 2, hashQueue: 200, hashesPerClient: 200 } });
    const browser = (address?: string) => browserFor(ctx.app.url, address);
    const attempt = async (b: PortalBrowser, address: string, password: string) =>
      (await b.post('/portal/sign-in', await b.get('/portal/sign-in'), { email: address, password })).status;

    it(`when 30 sign-ins for one account arrive at once, the right password among them, then at most ${THROTTLE.perAccount} passwords are checked`, async () => {
      const address = newEmail();
      await signedIn(browser(), address, PASSWORD);
      const statuses = await Promise.all(
        Array.from({ length: 30 }, (_, i) => attempt(browser(), address, i === 17 ? PASSWORD : `wrong password ${i}`)),
      );
      const checked = statuses.filter((s) => s === 401 || s === 303).length;
      expect(checked, statuses.join(' ')).to.be.at.most(THROTTLE.perAccount);
      expect(statuses.filter((s) => s === 429).length, statuses.join(' ')).to.be.at.least(30 - THROTTLE.perAccount);
    });

    it(`when one client sends ${THROTTLE.signUpsPerClient + 5} sign-ups at once, then at most ${THROTTLE.signUpsPerClient} are taken`, async () => {
      const b = browser();
      const form = await b.get('/portal/sign-up');
      const statuses = await Promise.all(
        Array.from(
          { length: THROTTLE.signUpsPerClient + 5 },
          async () => (await b.post('/portal/sign-up', form, { email: newEmail(), password: PASSWORD })).status,
        ),
      );
      expect(statuses.filter((s) => s === 200).length, statuses.join(' ')).to.equal(THROTTLE.signUpsPerClient);
      expect(statuses.filter((s) => s === 429).length, statuses.join(' ')).to.equal(5);
    });

    it('when someone who knows only the email fails from elsewhere until the account is locked, then the owner`s browser that signed in before still signs in; a new browser does not', async () => {
      const address = newEmail();
      const owner = browser();
      await signedIn(owner, address, PASSWORD);
      await owner.post('/portal/sign-out', await owner.get('/portal/keys'), {});
      expect(owner.cookie('wpc_device'), 'the owner`s browser is known to the account').to.be.a('string');
      for (let i = 0; i < THROTTLE.perAccount; i++) expect(await attempt(browser(), address, 'a wrong guess!!')).to.equal(401);
      expect(await attempt(browser(), address, PASSWORD), 'a browser the account has not seen').to.equal(429);
      expect(await attempt(owner, address, PASSWORD), 'the owner, from the browser that signed in before').to.equal(303);
    });

    it('when the owner`s device cookie is used to guess, then it has a lockout of its own', async () => {
      const address = newEmail();
      const owner = browser();
      await signedIn(owner, address, PASSWORD);
      for (let i = 0; i < THROTTLE.perDevice; i++) expect(await attempt(owner, address, 'a wrong guess!!')).to.equal(401);
      expect(await attempt(owner, address, PASSWORD)).to.equal(429);
    });

    it('when a device cookie of one account is sent to sign in to another, then that account`s lockout still applies', async () => {
      const victim = newEmail();
      await signedIn(browser(), victim, PASSWORD);
      const attacker = browser();
      await signedIn(attacker, newEmail(), PASSWORD);
      for (let i = 0; i < THROTTLE.perAccount; i++) expect(await attempt(attacker, victim, 'a wrong guess!!')).to.equal(401);
      expect(await attempt(attacker, victim, PASSWORD)).to.equal(429);
    });
    it(`when one address signs in to its own account over and over, then past ${THROTTLE.passwordsPerClient} passwords hashed in the window it is refused, and another address still signs in`, async () => {
      const own = newEmail();
      const looper = browser();
      await signedIn(looper, own, PASSWORD);
      const statuses: number[] = [];
      for (let i = 1; i < THROTTLE.passwordsPerClient + 2; i++) statuses.push(await attempt(looper, own, PASSWORD));
      // Sign-up and the first sign-in hashed two: the rest of the window's passwords are 303.
      expect(statuses.slice(0, THROTTLE.passwordsPerClient - 2), 'within the window`s hashes').to.deep.equal(
        Array.from({ length: THROTTLE.passwordsPerClient - 2 }, () => 303),
      );
      expect(statuses.slice(THROTTLE.passwordsPerClient - 2), 'past them').to.deep.equal([429, 429, 429]);
      const page = await looper.post('/portal/sign-in', await looper.get('/portal/sign-in'), { email: own, password: PASSWORD });
      expect(page.html).to.include('Too many sign-ins from your network');
      const other = browser();
      const someone = newEmail();
      await signedIn(other, someone, PASSWORD);
      expect(await attempt(other, someone, PASSWORD)).to.equal(303);
    });

    it('when sign-ins are refused for the account`s lockout, then they do not use up the client`s allowance: it still signs in elsewhere', async () => {
      const locked = newEmail();
      const other = newEmail();
      await signedIn(browser(), locked, PASSWORD);
      await signedIn(browser(), other, PASSWORD);
      for (let i = 0; i < THROTTLE.perAccount; i++) expect(await attempt(browser(), locked, 'a wrong guess!!')).to.equal(401);
      const office = '198.51.100.77';
      for (let i = 0; i < THROTTLE.perClient + 5; i++) expect(await attempt(browser(office), locked, PASSWORD), `try ${i}`).to.equal(429);
      expect(await attempt(browser(office), other, PASSWORD), 'another account, from the same address').to.equal(303);
    });
  });

  describe('with the default hashing budget (one at a time, eight waiting)', () => {
    const ctx = useCatalogue({ trustProxyHops: 1 });
    const browser = (address?: string) => browserFor(ctx.app.url, address);
    const attempt = async (b: PortalBrowser, address: string, password: string) =>
      (await b.post('/portal/sign-in', await b.get('/portal/sign-in'), { email: address, password })).status;

    it('when 50 sign-ins for unknown emails arrive at once, then those past the budget get 503 with Retry-After at once instead of queuing', async () => {
      const forms = await Promise.all(
        Array.from({ length: 50 }, async () => {
          const b = browser();
          return { b, form: await b.get('/portal/sign-in') };
        }),
      );
      const answers = await Promise.all(
        forms.map(({ b, form }) => b.post('/portal/sign-in', form, { email: newEmail(), password: 'any password at all' })),
      );
      const statuses = answers.map((a) => a.status);
      const { hashConcurrency, hashQueue } = ctx.config.portal;
      expect(statuses.filter((s) => s === 401).length, statuses.join(' ')).to.be.at.most(hashConcurrency + hashQueue);
      const busy = answers.filter((a) => a.status === 503);
      expect(busy.length, statuses.join(' ')).to.be.at.least(50 - hashConcurrency - hashQueue);
      for (const a of busy) expect(Number(a.headers.get('retry-after'))).to.be.at.least(1);
      expect(busy[0]!.html).to.include('Too many sign-ins are being checked right now');
    });

    it('when one client signs in over and over, many at once, then it holds at most PASSWORD_HASHES_PER_CLIENT places and another client still signs in', async () => {
      const own = newEmail();
      const looper = browser();
      await signedIn(looper, own, PASSWORD);
      let stop = false;
      let signedInOver = 0;
      const loops = Array.from({ length: 14 }, async () => {
        while (!stop) {
          const status = (await looper.post('/portal/sign-in', await looper.get('/portal/sign-in'), { email: own, password: PASSWORD })).status;
          if (status === 303) signedInOver++;
        }
      });
      const someone = newEmail();
      await signedIn(browser(), someone, PASSWORD);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push(await attempt(browser(), someone, PASSWORD));
      stop = true;
      await Promise.all(loops);
      expect(signedInOver, 'the looping client was served too').to.be.greaterThan(0);
      expect(statuses, 'the other client').to.deep.equal([303, 303, 303, 303, 303]);
    });
  });
});
