import { randomInt } from 'node:crypto';
import { uniqueName } from './harness.js';

/**
 * An address for a browser of its own (the portal trusts one proxy hop in these tests): the
 * per-client throttles of one test, or of an earlier run against the same Redis, never reach another.
 */
export const newClientAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
export const newEmail = (prefix = 'dev') => `${uniqueName(prefix)}@example.com`;

/** A minimal browser for the portal: a cookie jar, redirects followed by hand, forms read from the page. */
export interface PortalPage {
  status: number;
  headers: Headers;
  html: string;
  setCookies: string[];
}

export class PortalBrowser {
  private readonly jar = new Map<string, string>();
  /** `headers` go with every request: a test's own X-Forwarded-For keeps per-client throttles apart. */
  constructor(
    private readonly baseUrl: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  private remember(res: Response): string[] {
    const set = res.headers.getSetCookie();
    for (const line of set) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return set;
  }

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  async send(path: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<PortalPage> {
    const headers: Record<string, string> = { ...this.headers, ...init.headers };
    if (this.jar.size > 0) headers['Cookie'] = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(`${this.baseUrl}${path}`, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    });
    const setCookies = this.remember(res);
    return { status: res.status, headers: res.headers, html: await res.text(), setCookies };
  }

  get(path: string) {
    return this.send(path);
  }

  /** Posts a form with the CSRF token of the page it came from, and its one-time form id if it has one. */
  post(path: string, page: PortalPage, fields: Record<string, string>, headers: Record<string, string> = {}) {
    const formId = formIdOf(page);
    return this.send(path, { form: { csrf: csrfOf(page), ...(formId ? { form: formId } : {}), ...fields }, headers });
  }

  /** The page a redirect leads to (the answer itself when it is not one). */
  async follow(answer: PortalPage): Promise<PortalPage> {
    const location = answer.headers.get('location');
    return answer.status >= 300 && answer.status < 400 && location ? this.get(location) : answer;
  }
}

export function formIdOf(page: PortalPage): string | undefined {
  return /name="form" value="([^"]*)"/.exec(page.html)?.[1];
}

export function csrfOf(page: PortalPage): string {
  const match = /name="csrf" value="([^"]*)"/.exec(page.html);
  if (!match) throw new Error('no CSRF token on the page');
  return match[1]!;
}

/** The key shown once after generate or rotate. */
export function shownKey(page: PortalPage): string {
  const match = /id="new-key" type="text" readonly value="([^"]+)"/.exec(page.html);
  if (!match) throw new Error('no key shown on the page');
  return match[1]!;
}

export function keyIds(page: PortalPage): string[] {
  return [...page.html.matchAll(/<td><code>(key_[0-9A-Za-z]{12})<\/code><\/td>/g)].map((m) => m[1]!);
}

/** Signs up and in with a fresh email; the browser then holds the session. */
export async function signedIn(browser: PortalBrowser, email: string, password = 'correct horse battery'): Promise<PortalPage> {
  const form = await browser.get('/portal/sign-up');
  await browser.post('/portal/sign-up', form, { email, password });
  const signIn = await browser.get('/portal/sign-in');
  const done = await browser.post('/portal/sign-in', signIn, { email, password });
  if (done.status !== 303) throw new Error(`sign-in answered ${done.status}`);
  return browser.get('/portal/keys');
}

/** A browser of its own client address (the portal trusts one proxy hop in these tests). */
export const browserFor = (url: string, address = newClientAddress()) => new PortalBrowser(url, { 'X-Forwarded-For': address });
