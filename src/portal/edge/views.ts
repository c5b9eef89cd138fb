import type { AccountKey } from '../../access/store/key-store.js';
import { USAGE_CAP } from '../../access/store/sliding-window-lua.js';
import { type Markup, html } from './html.js';
import { type HourCount, usageChart } from './usage-chart.js';
import { PASSWORD } from '../domain/password-policy.js';

export const PORTAL = '/portal';

interface Chrome {
  title: string;
  /** Signed in: the account's name and the token its forms carry. */
  account?: { name: string; tier: string; csrf: string };
  /** The anonymous forms' token (double-submit cookie). */
  formToken?: string;
}

const csrfField = (token: string) => html`<input type="hidden" name="csrf" value="${token}" />`;
// The keys page's forms carry its one-time form id too: a form posted twice (a double click, a
// resubmission) acts once.
const keyFormFields = (csrf: string, formId: string) => html`${csrfField(csrf)}<input type="hidden" name="form" value="${formId}" />`;

function layout({ title, account }: Chrome, body: Markup): string {
  const nav = account
    ? html`<nav aria-label="Portal">
        <a href="${PORTAL}/keys">API Keys</a>
        <a href="${PORTAL}/usage">Usage</a>
        <a href="${PORTAL}/account">Account</a>
        <span class="muted">${account.name} (${account.tier})</span>
        <form class="inline" method="post" action="${PORTAL}/sign-out">
          ${csrfField(account.csrf)}<button class="link" type="submit">Sign out</button>
        </form>
      </nav>`
    : html`<nav aria-label="Portal"><a href="${PORTAL}/sign-in">Sign in</a><a href="${PORTAL}/sign-up">Sign up</a></nav>`;
  return `<!doctype html>${
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Wallpaper Catalogue developer portal</title>
        <link rel="stylesheet" href="${PORTAL}/assets/style.css" />
        <script src="${PORTAL}/assets/copy.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header><a class="brand" href="${PORTAL}">Wallpaper Catalogue · developers</a>${nav}</header>
        <main id="main">
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html>`.value
  }`;
}

const fieldError = (id: string, message?: string) => (message ? html`<p class="error" id="${id}-error">${message}</p>` : '');
const describedBy = (id: string, message?: string, hint?: string) =>
  [message ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || false;

// The email field of both forms: its error or the form's, when there is one, described by id.
const emailField = (value: string | undefined, describedByIds: string | false, invalid: boolean) =>
  html`<label for="email">Email</label
    ><input
      id="email"
      name="email"
      type="email"
      autocomplete="username"
      required
      value="${value ?? ''}"
      ${describedByIds ? html` aria-describedby="${describedByIds}"` : ''}
      ${invalid ? html` aria-invalid="true"` : ''}
    />`;

// A new password's field, with its hint and its error (sign-up and the account page).
const newPasswordField = (label: string, hint: string, error?: string) =>
  html`<label for="password">${label}</label
    ><input
      id="password"
      name="password"
      type="password"
      autocomplete="new-password"
      required
      aria-describedby="${describedBy('password', error, hint)}"
      ${error ? html` aria-invalid="true"` : ''}
    />
    <p class="hint" id="password-hint">${hint}</p>
    ${fieldError('password', error)}`;

export interface FormState {
  email?: string;
  error?: string;
  field?: 'email' | 'password';
  notice?: string;
}

export function signInPage(formToken: string, state: FormState = {}): string {
  return layout(
    { title: 'Sign in' },
    html`${state.notice ? html`<p class="notice" role="status">${state.notice}</p>` : ''}
      ${state.error ? html`<p class="alert" role="alert" id="form-error">${state.error}</p>` : ''}
      <form class="stack" method="post" action="${PORTAL}/sign-in" novalidate>
        ${csrfField(formToken)}
        <div>${emailField(state.email, state.error ? 'form-error' : false, false)}</div>
        <div>
          <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required />
        </div>
        <div><button type="submit">Sign in</button></div>
      </form>
      <p>No account yet? <a href="${PORTAL}/sign-up">Sign up</a>.</p>`,
  );
}

export function signUpPage(formToken: string, state: FormState = {}): string {
  const emailError = state.field === 'email' ? state.error : undefined;
  const passwordError = state.field === 'password' ? state.error : undefined;
  const passwordHint = `${PASSWORD.min} to ${PASSWORD.max} characters.`;
  const emailDescribed = describedBy('email', emailError);
  return layout(
    { title: 'Create an account' },
    html`${state.error && !state.field ? html`<p class="alert" role="alert">${state.error}</p>` : ''}
      <form class="stack" method="post" action="${PORTAL}/sign-up" novalidate>
        ${csrfField(formToken)}
        <div>${emailField(state.email, emailDescribed, Boolean(emailError))}${fieldError('email', emailError)}</div>
        <div>${newPasswordField('Password', passwordHint, passwordError)}</div>
        <div><button type="submit">Create account</button></div>
      </form>
      <p>Already registered? <a href="${PORTAL}/sign-in">Sign in</a>.</p>`,
  );
}

export interface ShownKey {
  apiKey: string;
  keyId: string;
  name: string;
  /** For a rotation: when the old key stops working. */
  oldKeyId?: string;
  oldExpiresAt?: string;
}

const GRACE_CHOICES: readonly [number, string][] = [
  [0, 'none (old key stops now)'],
  [3600, '1 hour'],
  [6 * 3600, '6 hours'],
  [24 * 3600, '24 hours'],
];

function shownKey(key: ShownKey): Markup {
  return html`<section class="notice" aria-labelledby="new-key-title">
    <h2 id="new-key-title">Your new key${key.name ? html` “${key.name}”` : ''}</h2>
    <p>Copy it now: it is shown only this once. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>
    <div class="secret">
      <label class="skip" for="new-key">New API key</label><input id="new-key" type="text" readonly value="${key.apiKey}" size="64" /><button
        type="button"
        data-copy="new-key"
      >
        Copy
      </button>
    </div>
    <p id="new-key-status" role="status" class="muted"></p>
    ${key.oldKeyId ? html`<p>The old key ${key.oldKeyId} keeps working until ${key.oldExpiresAt}, then answers 403.</p>` : ''}
  </section>`;
}

/**
 * A key's last use is kept to the minute (key-store.ts): shown as that minute, not as its first
 * second, which read as a use before a key made within that minute.
 */
const minuteOf = (iso: string) => `${iso.slice(0, 16)}Z`;

function keyRow(key: AccountKey, csrf: string, formId: string): Markup {
  const state = key.revoked_at ? `revoked ${key.revoked_at}` : key.expires_at ? `expires ${key.expires_at}` : 'active';
  const live = !key.revoked_at && !key.expires_at;
  // A key rotated out still works until its grace ends: its owner, learning it leaked, must be able
  // to stop it now (helper-96). Only a key still working can be revoked; only a live one rotated.
  const working = !key.revoked_at && (!key.expires_at || Date.parse(key.expires_at) > Date.now());
  const revoke = html`<form method="post" action="${PORTAL}/keys/${key.key_id}/revoke">
    ${keyFormFields(csrf, formId)}<button class="danger" type="submit" aria-label="Revoke ${key.key_id}">Revoke</button>
  </form>`;
  return html`<tr>
    <td>${key.name || html`<span class="muted">(unnamed)</span>`}</td>
    <td><code>${key.key_id}</code></td>
    <td>${key.created_at}</td>
    <td>${key.last_used ? minuteOf(key.last_used) : html`<span class="muted">never</span>`}</td>
    <td>${key.recent_requests}</td>
    <td>${state}</td>
    <td class="actions">
      ${
        live
          ? html`<form method="post" action="${PORTAL}/keys/${key.key_id}/rotate">
              ${keyFormFields(csrf, formId)}<label class="skip" for="grace-${key.key_id}">Grace period for ${key.key_id}</label
              ><select id="grace-${key.key_id}" name="grace">
                ${GRACE_CHOICES.map(([seconds, label]) => html`<option value="${seconds}">${label}</option>`)}</select
              ><button class="secondary" type="submit">Rotate</button>
            </form>`
          : ''
      }
      ${working ? revoke : ''}
    </td>
  </tr>`;
}

export interface KeysPageState {
  shown?: ShownKey;
  error?: string;
  notice?: string;
}

// The name field's maxlength counts UTF-16 units, two for an emoji: 128 lets any 64 characters
// through, and the route counts characters.
export function keysPage(
  chrome: Required<Pick<Chrome, 'account'>>,
  keys: readonly AccountKey[],
  { formId, accountId }: { formId: string; accountId: string },
  state: KeysPageState = {},
): string {
  const { csrf } = chrome.account;
  return layout(
    { title: 'API Keys', ...chrome },
    html`${state.shown ? shownKey(state.shown) : ''} ${state.notice ? html`<p class="notice" role="status">${state.notice}</p>` : ''}
      ${state.error ? html`<p class="alert" role="alert">${state.error}</p>` : ''}
      <h2>Generate a key</h2>
      <form class="stack" method="post" action="${PORTAL}/keys">
        ${keyFormFields(csrf, formId)}
        <div>
          <label for="name">Name</label><input id="name" name="name" type="text" maxlength="128" required aria-describedby="name-hint" />
          <p class="hint" id="name-hint">What the key is for, such as “wallpaper rotator”: 1 to 64 characters.</p>
        </div>
        <div><button type="submit">Generate key</button></div>
      </form>
      <h2>Your keys</h2>
      ${
        keys.length === 0
          ? html`<p class="muted">No keys yet.</p>`
          : html`<table>
              <caption class="skip">
                Your API keys
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key id</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Requests, last hour</th>
                  <th scope="col">State</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                ${keys.map((key) => keyRow(key, csrf, formId))}
              </tbody>
            </table>`
      }
      <p class="muted">
        Your account id is <code>${accountId}</code>. To change your tier, give it to the operators: they act on portal accounts only by this id,
        never by email alone.
      </p>`,
  );
}

export interface UsageView {
  limit: number;
  remaining: number;
  resetSeconds: number;
  windowSeconds: number;
  hours: readonly HourCount[];
}

export function usagePage(
  chrome: Required<Pick<Chrome, 'account'>>,
  usage: UsageView | null,
  { readAgainInSeconds }: { readAgainInSeconds?: number } = {},
): string {
  if (readAgainInSeconds !== undefined) {
    return layout(
      { title: 'Usage', ...chrome },
      html`<p class="alert" role="alert">Usage is read at most ${USAGE_CAP.reads} times a minute. Please reload in ${readAgainInSeconds} s.</p>`,
    );
  }
  if (!usage) {
    return layout({ title: 'Usage', ...chrome }, html`<p class="alert" role="alert">Usage cannot be read right now. Please try again shortly.</p>`);
  }
  const used = usage.limit - usage.remaining;
  return layout(
    { title: 'Usage', ...chrome },
    html`<div class="figures">
        <div><span class="muted">Tier</span><strong>${chrome.account.tier}</strong></div>
        <div><span class="muted">Limit</span><strong id="limit">${usage.limit}</strong></div>
        <div><span class="muted">Used in the current window</span><strong id="used">${used}</strong></div>
        <div><span class="muted">Remaining</span><strong id="remaining">${usage.remaining}</strong></div>
        <div><span class="muted">Window resets in</span><strong id="reset">${usage.resetSeconds} s</strong></div>
      </div>
      <p class="hint">
        The same numbers the API reports in <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and <code>X-RateLimit-Reset</code>: a
        sliding window of ${usage.windowSeconds} seconds over all of your keys.
      </p>
      <h2>Requests per hour, last 24 hours</h2>
      ${usageChart(usage.hours, usage.limit)}
      <details>
        <summary>The same figures as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Hour (UTC)</th>
              <th scope="col">Requests</th>
            </tr>
          </thead>
          <tbody>
            ${usage.hours.map(
              (h) =>
                html`<tr>
                  <td>${new Date(h.hourStartMs).toISOString().slice(0, 13).replace('T', ' ')}:00</td>
                  <td>${h.requests}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </details>`,
  );
}

export interface AccountPageState {
  notice?: string;
  error?: string;
  /** The field the error is of, when it is one field's. */
  field?: 'current' | 'password';
}

export function accountPage(chrome: Required<Pick<Chrome, 'account'>>, state: AccountPageState = {}): string {
  const { csrf } = chrome.account;
  const currentError = state.field === 'current' ? state.error : undefined;
  const passwordError = state.field === 'password' ? state.error : undefined;
  const passwordHint = `${PASSWORD.min} to ${PASSWORD.max} characters. Your other browsers are signed out.`;
  return layout(
    { title: 'Account', ...chrome },
    html`${state.notice ? html`<p class="notice" role="status">${state.notice}</p>` : ''}
      ${state.error && !state.field ? html`<p class="alert" role="alert">${state.error}</p>` : ''}
      <h2>Change your password</h2>
      <form class="stack" method="post" action="${PORTAL}/account/password" novalidate>
        ${csrfField(csrf)}
        <div>
          <label for="current">Current password</label
          ><input
            id="current"
            name="current"
            type="password"
            autocomplete="current-password"
            required
            ${currentError ? html` aria-invalid="true" aria-describedby="current-error"` : ''}
          />
          ${fieldError('current', currentError)}
        </div>
        <div>${newPasswordField('New password', passwordHint, passwordError)}</div>
        <div><button type="submit">Change password</button></div>
      </form>
      <h2>Other browsers</h2>
      <p>Sign out every other browser signed in to this account: one you no longer use, or whose cookie may have leaked.</p>
      <form method="post" action="${PORTAL}/account/sign-out-others">
        ${csrfField(csrf)}<button class="secondary" type="submit">Sign out everywhere else</button>
      </form>`,
  );
}

export function messagePage(title: string, message: string, chrome: Pick<Chrome, 'account'> = {}): string {
  return layout(
    { title, ...chrome },
    html`<p class="alert" role="alert">${message}</p>
      <p><a href="${PORTAL}">Back to the portal</a></p>`,
  );
}
