import { AxeBuilder } from '@axe-core/playwright';
import { expect } from 'chai';
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { type Browser, type Page, chromium } from 'playwright-core';
import { request, uniqueName } from '../support/harness.js';
import { newClientAddress } from '../support/portal-browser.js';
import { useCatalogue } from './catalogue-context.js';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const OUT = 'test-output/portal';
// One screenshot of each page is kept under docs/ when PORTAL_SCREENSHOTS_TO_DOCS=1.
const DOCS = 'docs/portal';

async function accessible(page: Page, name: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${name}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `axe-core on ${name}`,
  ).to.deep.equal([]);
}

async function shot(page: Page, name: string): Promise<void> {
  const path = `${OUT}/${name}.png`;
  await page.screenshot({ path, fullPage: true });
  expect(statSync(path).size).to.be.greaterThan(5_000);
  if (process.env['PORTAL_SCREENSHOTS_TO_DOCS'] === '1') copyFileSync(path, `${DOCS}/${name}.png`);
}

describe('the developer portal in a real browser', function () {
  this.timeout(120_000);
  // Each browser is a client of its own (one trusted proxy hop, an address of its own), so the
  // per-address sign-up throttle of earlier runs against the same Redis never reaches it.
  const ctx = useCatalogue({ trustProxyHops: 1 });
  const asNewClient = () => ({ 'X-Forwarded-For': newClientAddress() });
  let browser: Browser;

  before(async () => {
    mkdirSync(OUT, { recursive: true });
    mkdirSync(DOCS, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  after(async () => {
    await browser?.close();
  });

  it('when a developer signs up, generates, uses, revokes and rotates keys, then each step works and every page passes axe-core', async () => {
    const context = await browser.newContext({
      viewport: { width: 1100, height: 800 },
      permissions: ['clipboard-read', 'clipboard-write'],
      extraHTTPHeaders: asNewClient(),
    });
    const page = await context.newPage();
    const offOrigin: string[] = [];
    const cspViolations: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(ctx.app.url)) offOrigin.push(req.url());
    });
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
    });
    const email = `${uniqueName('walk')}@example.com`;
    const password = 'correct horse battery';

    await page.goto(`${ctx.app.url}/portal`);
    expect(new URL(page.url()).pathname).to.equal('/portal/sign-in');
    await accessible(page, 'sign-in');
    await shot(page, 'sign-in');

    await page.getByRole('link', { name: 'Sign up' }).first().click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await page.locator('#password-error').textContent()).to.include('characters');
    await accessible(page, 'sign-up with an error');
    await shot(page, 'sign-up');

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/portal/keys');
    await accessible(page, 'API Keys (empty)');

    await page.getByLabel('Name').fill('wallpaper rotator');
    await page.getByRole('button', { name: 'Generate key' }).click();
    const key = await page.locator('#new-key').inputValue();
    expect(key).to.match(/^wpc_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(key);
    await accessible(page, 'API Keys (key shown)');
    await shot(page, 'keys');

    expect((await request(ctx.app.url, '/v1/wallpapers?per_page=2', { key })).status).to.equal(200);

    await page.goto(`${ctx.app.url}/portal/keys`);
    expect(await page.content()).not.to.include(key);
    await page.getByRole('button', { name: /^Revoke key_/ }).click();
    await page.getByText('is revoked').waitFor();
    expect((await request(ctx.app.url, '/v1/wallpapers?per_page=2', { key })).status).to.equal(403);

    await page.getByLabel('Name').fill('mirror');
    await page.getByRole('button', { name: 'Generate key' }).click();
    const before = await page.locator('#new-key').inputValue();
    await page.goto(`${ctx.app.url}/portal/keys`);
    await page.locator('select[name=grace]').first().selectOption('3600');
    await page.getByRole('button', { name: 'Rotate' }).first().click();
    const after = await page.locator('#new-key').inputValue();
    expect(after).not.to.equal(before);
    expect(await page.textContent('main')).to.include('keeps working until');
    expect((await request(ctx.app.url, '/v1/wallpapers?per_page=2', { key: before })).status).to.equal(200);
    expect((await request(ctx.app.url, '/v1/wallpapers?per_page=2', { key: after })).status).to.equal(200);
    await accessible(page, 'API Keys (rotated)');

    await page.getByRole('link', { name: 'Usage' }).click();
    await page.waitForSelector('svg.chart');
    expect(await page.textContent('#used')).to.equal('3');
    await accessible(page, 'Usage');
    await shot(page, 'usage');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/portal/sign-in');
    await page.goto(`${ctx.app.url}/portal/keys`);
    expect(new URL(page.url()).pathname).to.equal('/portal/sign-in');

    expect(offOrigin, 'requests outside the service (external assets)').to.deep.equal([]);
    expect(cspViolations, 'Content-Security-Policy violations').to.deep.equal([]);
    await context.close();
  });

  it('when JavaScript is off, then signing in and generating a key still work', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: asNewClient() });
    const page = await context.newPage();
    const email = `${uniqueName('nojs')}@example.com`;
    await page.goto(`${ctx.app.url}/portal/sign-up`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/portal/keys');
    await page.getByLabel('Name').fill('no script');
    await page.getByRole('button', { name: 'Generate key' }).click();
    expect(await page.locator('#new-key').inputValue()).to.match(/^wpc_/);
    await context.close();
  });
});
