import { expect } from 'chai';
import { mkdirSync, statSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { useCatalogue } from './catalogue-context.js';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const SCREENSHOT = 'test-output/docs.png';

describe('the /docs reference page in a real browser', function () {
  this.timeout(90_000);
  const ctx = useCatalogue();

  it('when opened headless, then it renders the three endpoints and the error model from /v1/openapi.json, offline, under its CSP and never framed', async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 2000 } });
      const offOrigin: string[] = [];
      page.on('request', (req) => {
        if (!req.url().startsWith(ctx.app.url)) offOrigin.push(req.url());
      });
      // The browser reports every refusal of the policy as a securitypolicyviolation event.
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { cspViolations: string[] }).cspViolations = seen;
        document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      const response = await page.goto(`${ctx.app.url}/docs`);
      expect(response?.status()).to.equal(200);
      const headers = response!.headers();
      expect(headers['content-security-policy']).to.include("frame-ancestors 'none'");
      expect(headers['x-frame-options']).to.equal('DENY');
      await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
      const paths = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.getAttribute('data-path')));
      expect(paths).to.include.members(['/v1/wallpapers', '/v1/wallpapers/{id}', '/v1/search']);
      const text = await page.textContent('body');
      expect(text).to.include('Wallpaper Catalogue API');
      expect(text).to.include('Error');
      expect(text).to.include('WallpaperList');
      await page.click('.opblock-summary-path[data-path="/v1/search"]');
      await page.waitForSelector('.responses-table', { timeout: 10_000 });
      const responses = await page.textContent('.opblock.is-open');
      for (const code of ['200', '400', '401', '403', '429']) expect(responses).to.include(code);
      mkdirSync('test-output', { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: false });
      expect(statSync(SCREENSHOT).size).to.be.greaterThan(10_000);
      expect(offOrigin, 'requests outside the API origin (a CDN?)').to.deep.equal([]);
      const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
      expect(violations, 'what the Content-Security-Policy of the page refused').to.deep.equal([]);
    } finally {
      await browser.close();
    }
  });
});
