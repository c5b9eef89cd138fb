import type { AccountStore } from '../access/account-store.js';
import type { AccountKey } from '../access/key-store.js';
import { hashPassword, verifyPassword } from '../infra/password-hash.js';
import type { Session, SessionStore } from './session-store.js';
import type { ThrottleStore } from './throttle-store.js';

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

// Failed sign-ins allowed per client address and per account in a window, and sign-ups per address.
export const THROTTLE = {
  windowSeconds: 15 * 60,
  perClient: 20,
  perAccount: 5,
  signUpsPerClient: 10,
  signUpWindowSeconds: 3600,
} as const;

export const PASSWORD = { min: 10, max: 128 } as const;
const EMAIL = /^[^\s@<>"]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+$/;

export type SignInResult =
  { outcome: 'signed-in'; token: string; session: Session } | { outcome: 'refused' } | { outcome: 'throttled'; retryAfterSeconds: number };

export type SignUpResult =
  { outcome: 'done' } | { outcome: 'invalid'; field: 'email' | 'password'; message: string } | { outcome: 'throttled'; retryAfterSeconds: number };

/** Lower-case, trimmed; null when it is not an address. */
export function normalizeEmail(text: string): string | null {
  const email = text.trim().toLowerCase();
  return email.length <= 254 && EMAIL.test(email) ? email : null;
}

// Verified against when there is no account, so a sign-in for an unknown email costs what a wrong
// password costs (one scrypt): timing does not tell whether an email is registered.
const decoy = hashPassword('decoy password, never matches');

/**
 * Accounts, sign-in and sessions of the developer portal. Nothing it answers tells whether an
 * email is registered: sign-up always answers "done" (an existing account is left untouched),
 * sign-in refuses unknown emails, wrong passwords and disabled accounts alike, after the same work.
 */
export function createPortalService({
  accounts,
  sessions,
  throttle,
  defaultTier,
}: {
  accounts: AccountStore;
  sessions: SessionStore;
  throttle: ThrottleStore;
  defaultTier: string;
}) {
  async function throttled(client: string, email: string): Promise<number> {
    const [byClient, byAccount] = await Promise.all([throttle.read('sign-in-client', client), throttle.read('sign-in-account', email)]);
    if (byClient.count >= THROTTLE.perClient) return byClient.retryAfterSeconds;
    if (byAccount.count >= THROTTLE.perAccount) return byAccount.retryAfterSeconds;
    return 0;
  }

  return {
    async signUp(emailText: string, password: string, client: string): Promise<SignUpResult> {
      const email = normalizeEmail(emailText);
      if (!email) return { outcome: 'invalid', field: 'email', message: 'Enter an email address such as name@example.com.' };
      if (password.length < PASSWORD.min || password.length > PASSWORD.max) {
        return { outcome: 'invalid', field: 'password', message: `Use a password of ${PASSWORD.min} to ${PASSWORD.max} characters.` };
      }
      const signUps = await throttle.read('sign-up-client', client);
      if (signUps.count >= THROTTLE.signUpsPerClient) return { outcome: 'throttled', retryAfterSeconds: signUps.retryAfterSeconds };
      await throttle.hit('sign-up-client', client, THROTTLE.signUpWindowSeconds);
      // Hashed whether or not the email is taken, so both answers take as long.
      const passwordHash = await hashPassword(password);
      await accounts.create({ name: email, tier: defaultTier, passwordHash });
      return { outcome: 'done' };
    },

    async signIn(emailText: string, password: string, client: string): Promise<SignInResult> {
      const email = normalizeEmail(emailText) ?? emailText.trim().toLowerCase().slice(0, 254);
      const wait = await throttled(client, email);
      if (wait > 0) return { outcome: 'throttled', retryAfterSeconds: wait };
      const account = await accounts.byName(email);
      const matches = await verifyPassword(password.slice(0, PASSWORD.max), account?.passwordHash ?? (await decoy));
      if (!account || !matches || account.disabled) {
        await Promise.all([
          throttle.hit('sign-in-client', client, THROTTLE.windowSeconds),
          throttle.hit('sign-in-account', email, THROTTLE.windowSeconds),
        ]);
        return { outcome: 'refused' };
      }
      await throttle.clear('sign-in-account', email);
      return { outcome: 'signed-in', ...(await sessions.create(account.accountId)) };
    },

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
  };
}

export type PortalService = ReturnType<typeof createPortalService>;
