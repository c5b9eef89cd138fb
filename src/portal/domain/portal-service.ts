import type { AccountStore } from '../../access/store/account-store.js';
import type { AccountKey } from '../../access/store/key-store.js';
import { hashPassword, verifyPassword } from '../../infra/password-hash.js';
import { hasInvisible } from '../../infra/visible-text.js';
import type { WorkBudget } from '../../infra/work-budget.js';
import type { DeviceStore } from '../store/device-store.js';
import { passwordProblem } from './password-policy.js';
import type { Session, SessionStore } from '../store/session-store.js';
import { mixesLookAlikeScripts } from './look-alike.js';
import type { ThrottleStore } from '../store/throttle-store.js';

/** What the portal needs of the key store (createKeyStore). */
export interface PortalKeys {
  createAccountKey(accountId: string, name: string): Promise<{ apiKey: string; keyId: string }>;
  listAccountKeys(accountId: string): Promise<AccountKey[]>;
  revokeAccountKey(accountId: string, keyId: string): Promise<boolean>;
  rotateAccountKey(
    accountId: string,
    keyId: string,
    graceSeconds: number,
  ): Promise<{ apiKey: string; keyId: string; name: string; expiresAt: string } | null>;
  hourlyUsage(accountId: string): Promise<{ hourStartMs: number; requests: number }[]>;
}

// Sign-in attempts allowed per client address, per account from browsers it has not seen, and per
// browser it has seen (a device cookie), in a window; sign-ups per address; and passwords hashed
// for one address in the window, whatever came of them. A successful sign-in gives its attempt
// back (an office behind one address is not locked out by its own sign-ins) but still cost a hash:
// without the last bound, five addresses signing in to their own account over and over held every
// hash place, and everyone else's sign-in got 503 (helper-96).
export const THROTTLE = {
  windowSeconds: 15 * 60,
  perClient: 20,
  perAccount: 5,
  perDevice: 10,
  passwordsPerClient: 30,
  passwordChangesPerSession: 5,
  signUpsPerClient: 10,
  signUpWindowSeconds: 3600,
} as const;

const EMAIL = /^[^\s@<>"]{1,64}@[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)+$/;

/** Refused by a counter: `hashes` when it was the address's passwords hashed, whatever came of them. */
type Throttled = { outcome: 'throttled'; retryAfterSeconds: number; hashes: boolean };

export type SignInResult = { outcome: 'signed-in'; token: string; session: Session; device: string } | { outcome: 'refused' } | Throttled;

export type SignUpResult = { outcome: 'done' } | { outcome: 'invalid'; field: 'email' | 'password'; message: string } | Throttled;

export type PasswordChange =
  | { outcome: 'changed'; signedOut: number }
  | { outcome: 'refused' }
  // The current password was right, but another change was written first (its session ended this one).
  | { outcome: 'changed-elsewhere' }
  | { outcome: 'invalid'; message: string }
  | Throttled;

/**
 * One spelling per address: NFKC (full-width letters, compatibility forms and NFC/NFD spellings
 * become one), trimmed, lower-case. Null when it is not an address, or holds a character that
 * does not show (a zero-width space would make a second account that looks like the first).
 */
export function normalizeEmail(text: string): string | null {
  const email = text.normalize('NFKC').trim().toLowerCase();
  return email.length <= 254 && EMAIL.test(email) && !hasInvisible(email) ? email : null;
}

// Verified against when there is no account, so a sign-in for an unknown email costs what a wrong
// password costs (one scrypt): timing does not tell whether an email is registered.
const decoy = hashPassword('decoy password, never matches');

/**
 * Accounts, sign-in and sessions of the developer portal. Nothing it answers tells whether an
 * email is registered: sign-up always answers "done" (an existing account is left untouched),
 * sign-in refuses unknown emails, wrong passwords and disabled accounts alike, after the same work.
 *
 * Every attempt is counted before its password is hashed, and a hash needs a place in `hashing`
 * (BudgetFull otherwise, which the edge answers with 503): the order is place, count, hash.
 */
export function createPortalService({
  accounts,
  sessions,
  throttle,
  devices,
  hashing,
  defaultTier,
}: {
  accounts: AccountStore;
  sessions: SessionStore;
  throttle: ThrottleStore;
  devices: DeviceStore;
  hashing: WorkBudget;
  defaultTier: string;
}) {
  const { windowSeconds } = THROTTLE;

  /**
   * Counts an attempt on each counter; null when all let it through. An attempt refused before its
   * password is checked guesses nothing and costs no hash: the counters that let it through give it
   * back, so parallel sign-ins past the account's limit do not use up the address's allowance (and
   * lock every account out from it).
   */
  async function takeAll(counters: [scope: string, subject: string, limit: number, windowSeconds: number][]): Promise<Throttled | null> {
    const taken = await Promise.all(counters.map(([scope, subject, limit, seconds]) => throttle.take(scope, subject, limit, seconds)));
    if (taken.every(({ allowed }) => allowed)) return null;
    await Promise.all(counters.filter((_, i) => taken[i]!.allowed).map(([scope, subject]) => throttle.refund(scope, subject)));
    return {
      outcome: 'throttled',
      retryAfterSeconds: Math.max(...taken.map((t) => (t.allowed ? 0 : t.retryAfterSeconds))),
      hashes: taken.every(({ allowed }, i) => allowed || counters[i]![0] === 'password-client'),
    };
  }

  return {
    async signUp(emailText: string, password: string, client: string): Promise<SignUpResult> {
      const email = normalizeEmail(emailText);
      if (!email) return { outcome: 'invalid', field: 'email', message: 'Enter an email address such as name@example.com.' };
      // At sign-up only: an account made before the rule still signs in.
      if (mixesLookAlikeScripts(email.slice(0, email.lastIndexOf('@')))) {
        return { outcome: 'invalid', field: 'email', message: 'An email address may not mix Latin, Cyrillic and Greek letters, which look alike.' };
      }
      const problem = passwordProblem(password, { email });
      if (problem) return { outcome: 'invalid', field: 'password', message: problem };
      const slot = hashing.reserve(client);
      try {
        const refusal = await takeAll([
          ['sign-up-client', client, THROTTLE.signUpsPerClient, THROTTLE.signUpWindowSeconds],
          ['password-client', client, THROTTLE.passwordsPerClient, windowSeconds],
        ]);
        if (refusal) return refusal;
        // Hashed whether or not the email is taken, so both answers take as long.
        const passwordHash = await slot.run(() => hashPassword(password));
        await accounts.create({ name: email, tier: defaultTier, passwordHash });
        return { outcome: 'done' };
      } finally {
        slot.cancel();
      }
    },

    /**
     * Counted per client address, and either per account (a browser this account has not seen)
     * or per device (one that signed in to it before): the owner's browser is not locked out by
     * someone who guesses from elsewhere.
     */
    async signIn(emailText: string, password: string, client: string, device?: string): Promise<SignInResult> {
      const email = normalizeEmail(emailText) ?? emailText.normalize('NFKC').trim().toLowerCase().slice(0, 254);
      const slot = hashing.reserve(client);
      try {
        const [account, deviceAccount] = await Promise.all([accounts.byName(email), devices.accountOf(device)]);
        const known = account !== null && deviceAccount === account.accountId;
        const refusal = await takeAll([
          ['sign-in-client', client, THROTTLE.perClient, windowSeconds],
          known ? ['sign-in-device', device!, THROTTLE.perDevice, windowSeconds] : ['sign-in-account', email, THROTTLE.perAccount, windowSeconds],
          ['password-client', client, THROTTLE.passwordsPerClient, windowSeconds],
        ]);
        if (refusal) return refusal;
        const stored = account?.passwordHash ?? (await decoy);
        const matches = await slot.run(() => verifyPassword(password, stored));
        if (!account || !matches || account.disabled) return { outcome: 'refused' };
        await Promise.all([
          throttle.refund('sign-in-client', client),
          known ? throttle.clear('sign-in-device', device!) : throttle.clear('sign-in-account', email),
        ]);
        const [created, issued] = await Promise.all([sessions.create(account.accountId), known ? device! : devices.issue(account.accountId)]);
        // A password change may have landed since the hash was read: this sign-in then used the old
        // password, and its session and browser, made after the change ended the others, had stayed
        // (helper-111). Read again once they are listed with the account: a change after this read
        // ends them itself, one before it is seen here.
        const now = await accounts.byId(account.accountId);
        if (now?.passwordHash !== account.passwordHash || now.disabled) {
          await Promise.all([sessions.destroy(created.token), known ? undefined : devices.forget(issued)]);
          return { outcome: 'refused' };
        }
        return { outcome: 'signed-in', ...created, device: issued };
      } finally {
        // A place never used (throttled, or Redis failed) goes back; after run() this does nothing.
        slot.cancel();
      }
    },

    /**
     * A signed-in owner's new password, given the current one: checked as a sign-in is (counted per
     * address and per session before any hash, both hashes in one place of the budget, so a stolen
     * session cannot guess the password faster than a sign-in could), then every other session of
     * the account ends, and every other browser it knew is forgotten, as whoever knew the old
     * password may hold one. Counted per session, not per account: someone who knows the password
     * had spent the account's tries with wrong ones, again each window, so that its owner could
     * never change it (helper-109); a session is had only by knowing the password, so tries per
     * session bound a stolen one and no one else's.
     */
    async changePassword(
      signed: { accountId: string; email: string; token: string; device?: string | undefined },
      current: string,
      next: string,
      client: string,
    ) {
      const problem = passwordProblem(next, { email: signed.email });
      if (problem) return { outcome: 'invalid', message: problem } satisfies PasswordChange;
      const slot = hashing.reserve(client);
      try {
        const refusal = await takeAll([
          ['password-client', client, THROTTLE.passwordsPerClient, windowSeconds],
          ['password-change', signed.token, THROTTLE.passwordChangesPerSession, windowSeconds],
        ]);
        if (refusal) return refusal;
        const account = await accounts.byId(signed.accountId);
        const checked = await slot.run(async () => {
          if (!account?.passwordHash || !(await verifyPassword(current, account.passwordHash))) return null;
          return hashPassword(next);
        });
        if (checked === null || !account?.passwordHash || account.disabled) return { outcome: 'refused' } satisfies PasswordChange;
        if (!(await accounts.setPassword(signed.accountId, account.passwordHash, checked)))
          return { outcome: 'changed-elsewhere' } satisfies PasswordChange;
        await throttle.clear('password-change', signed.token);
        const keep = (await devices.accountOf(signed.device)) === signed.accountId ? signed.device : undefined;
        const [signedOut] = await Promise.all([sessions.destroyOthers(signed.accountId, signed.token), devices.forgetOthers(signed.accountId, keep)]);
        return { outcome: 'changed', signedOut } satisfies PasswordChange;
      } finally {
        slot.cancel();
      }
    },

    /** Ends every other session of the account (a browser lost, a cookie that may have leaked). */
    signOutOthers: (accountId: string, token: string) => sessions.destroyOthers(accountId, token),

    /** The session and its account, or null when either is gone or the account was disabled. */
    async resume(token: string) {
      const session = await sessions.get(token);
      if (!session) return null;
      const account = await accounts.byId(session.accountId);
      if (!account || account.disabled) {
        await sessions.destroy(token);
        return null;
      }
      return { session, account };
    },

    signOut: (token: string) => sessions.destroy(token),
    issueForm: (token: string) => sessions.issueForm(token),
    useForm: (token: string, id: string) => sessions.useForm(token, id),
    handOff: (token: string, value: unknown) => sessions.handOff(token, value),
    takeHandOff: <T>(token: string) => sessions.takeHandOff<T>(token),
  };
}

export type PortalService = ReturnType<typeof createPortalService>;
