/** The headless browser of the page tests and of scripts/tools/screenshots: Debian's chromium driven by puppeteer-core. */
import { existsSync } from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer-core';

/** Debian's chromium (installed by the setup when missing), or CITEGRAPH_CHROMIUM. */
export function chromiumPath(): string {
  const candidates = [process.env.CITEGRAPH_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((file): file is string => !!file && existsSync(file));
  if (!found) {
    throw new Error(
      'no Chromium: run node scripts/setup.js --only browser (apt-get install chromium) or set CITEGRAPH_CHROMIUM',
    );
  }
  return found;
}

/** A headless Chromium (no sandbox: CI runs as root), offline apart from the service under test. */
export function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--window-size=1366,900'],
    defaultViewport: { width: 1366, height: 900 },
  });
}
