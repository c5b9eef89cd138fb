import { createRequire } from 'node:module';

/**
 * Lengths in code points after NFKC, as NIST SP 800-63B (rev. 4) counts them: at least 15 for a
 * password that is the only factor, and no silent truncation: the whole password is hashed, and
 * one longer than `max` is refused at sign-up (so a longer one can never sign in) rather than cut.
 */
export const PASSWORD = { min: 15, max: 256 } as const;

// Words of this service that make a password guessable to anyone who knows where it is used.
const CONTEXT_WORDS = ['wallpaper', 'wallpapers', 'wallpapercatalogue', 'wallpapercatalog', 'portal', 'apikey'];
// Walks along the keyboard (row after row, or column after column) and the alphabet.
const KEYBOARD_ROWS = ['1234567890', 'qwertyuiopasdfghjklzxcvbnm', '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p', 'abcdefghijklmnopqrstuvwxyz'];

let common: ReadonlySet<string> | null = null;

/**
 * The 49,000 most common passwords of breach corpora, as the maintained `@zxcvbn-ts/language-common`
 * package ships them; read on the first sign-up, not at start, so a process that never signs
 * anyone up does not hold them.
 */
function commonPasswords(): ReadonlySet<string> {
  if (!common) {
    const require = createRequire(import.meta.url);
    const { dictionary } = require('@zxcvbn-ts/language-common') as { dictionary: Record<string, string[]> };
    common = new Set((dictionary['passwords-common'] ?? []).map((p) => p.toLowerCase()));
  }
  return common;
}

const isSequence = (text: string) => {
  const points = [...text].map((c) => c.codePointAt(0)!);
  const step = points[1]! - points[0]!;
  return (step === 1 || step === -1) && points.every((p, i) => i === 0 || p - points[i - 1]! === step);
};
const onKeyboardRow = (text: string) =>
  KEYBOARD_ROWS.some((row) => {
    const twice = row + row;
    return twice.includes(text) || [...twice].reverse().join('').includes(text);
  });

/**
 * Why a new password is refused, or null. Following NIST SP 800-63B: length, and a blocklist of
 * what attackers try first (common passwords, repeated or sequential characters, keyboard runs,
 * words of the context), with no composition rules.
 */
export function passwordProblem(password: string, { email }: { email: string }): string | null {
  const normalized = password.normalize('NFKC');
  const length = [...normalized].length;
  if (length < PASSWORD.min || length > PASSWORD.max) return `Use a password of ${PASSWORD.min} to ${PASSWORD.max} characters.`;
  // What is left of it without spaces and punctuation, and without digits and symbols at its ends.
  const compact = normalized.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  const core = normalized
    .toLowerCase()
    .replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '')
    .replace(/[^\p{L}\p{N}]/gu, '');
  const weak = 'This password is too easy to guess: choose a longer phrase of your own.';
  if (compact.length === 0 || /^(.+?)\1+$/u.test(compact) || isSequence(compact) || onKeyboardRow(compact)) return weak;
  const [local = '', domain = ''] = email.toLowerCase().split('@');
  const context = new Set([
    ...CONTEXT_WORDS,
    local.replace(/[^\p{L}\p{N}]/gu, ''),
    email.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ''),
    domain.split('.')[0] ?? '',
  ]);
  if (context.has(compact) || context.has(core)) return weak;
  const list = commonPasswords();
  if (list.has(normalized.toLowerCase()) || list.has(compact) || (core.length >= 4 && list.has(core))) return weak;
  return null;
}
