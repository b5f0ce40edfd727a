import type { Browser, Page } from 'puppeteer-core';
import { documentedExamples } from '../../src/api/explorer';
import { serveGraphQL } from '../../src/api/server';
import { launchBrowser } from '../../scripts/lib/browser';
import { createTestContext } from '../helpers/context';

/**
 * The GraphQL explorer in a real browser (headless Chromium driven by puppeteer-core): served by the service itself,
 * nothing fetched from elsewhere, the documentation's examples as tabs, and a query run from the page.
 */
const { app } = createTestContext();
let url = '';
let stop: () => Promise<void> = () => Promise.resolve();
let browser: Browser;

beforeAll(async () => {
  ({ url, stop } = await serveGraphQL(app, 0, '127.0.0.1'));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stop();
  await app.close();
});

/** A page that records console errors, failed loads and every URL it requests. */
async function watchedPage(): Promise<{ page: Page; errors: string[]; requested: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  const requested: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('requestfailed', (request) => errors.push(`failed: ${request.url()}`));
  page.on('request', (request) => requested.push(request.url()));
  return { page, errors, requested };
}

describe('GraphQL explorer in a browser', () => {
  it('serves GraphiQL from the service with the documentation examples as tabs, and runs a query', async () => {
    const { page, errors, requested } = await watchedPage();
    const response = await page.goto(url, { waitUntil: 'networkidle0' });
    expect(response!.status()).toBe(200);
    expect(response!.headers()['content-security-policy']).toMatch(/default-src 'self'/);
    await page.waitForSelector('.graphiql-container', { timeout: 20_000 });
    const examples = documentedExamples();
    expect(examples.length).toBeGreaterThan(5);
    const tabs = await page.$$eval('.graphiql-tab', (nodes) => nodes.length);
    expect(tabs).toBe(examples.length);
    // Each tab is titled by its operation; run the health check from the page.
    const titles = await page.$$eval('.graphiql-tab button.graphiql-tab-button', (nodes) =>
      nodes.map((n) => n.textContent ?? ''),
    );
    expect(titles).toContain('Health');
    expect(titles).not.toContain('<untitled>');
    const tabButtons = await page.$$('.graphiql-tab button.graphiql-tab-button');
    await tabButtons[titles.indexOf('Health')]!.click();
    await page.waitForFunction(
      "(document.querySelector('.graphiql-query-editor')?.textContent ?? '').includes('query Health')",
      { timeout: 20_000 },
    );
    await page.click('.graphiql-execute-button');
    await page.waitForFunction(
      "(document.querySelector('.graphiql-response')?.textContent ?? '').includes('neo4jVersion')",
      { timeout: 20_000 },
    );
    const shown = await page.$eval('.graphiql-response', (node) => node.textContent ?? '');
    expect(shown).toMatch(/"ok":\s*true/);
    // Everything came from the service: no CDN, no console error.
    const origin = new URL(url).origin;
    for (const address of requested) {
      expect(address.startsWith(origin) || address.startsWith('data:')).toBe(true);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('still answers GraphQL over GET for clients that ask for JSON', async () => {
    const response = await fetch(`${url}?query=${encodeURIComponent('{ health { ok } }')}`, {
      headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { health: { ok: true } } });
  });
});
