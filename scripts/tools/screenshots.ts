/**
 * Screenshots of every view of the web page, for review: search, ask (with its citations), the paper a citation
 * opens (quote highlighted), an author, topic trends, the maps (co-authorship, co-citation, coupling, topic
 * co-occurrence; the citation map with its main path as a historiograph) and the GraphQL explorer. Against a running
 * service (`npm start`, the bundled sample) or any URL:
 *
 *   node dist/scripts/tools/screenshots.js [--url http://127.0.0.1:4000] [--out docs/screenshots] [--collection Nelson_2002]
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/settings';
import { launchBrowser } from '../lib/browser';

/** A map view is ready once it has placed its labels (the page publishes what it drew). */
const MAP_READY = '.map-canvas canvas, .empty-map';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: string) =>
    args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1]! : fallback;
  const base = option('url', 'http://127.0.0.1:4000').replace(/\/$/, '');
  const out = path.resolve(PROJECT_ROOT, option('out', 'docs/screenshots'));
  const collection = option('collection', 'Nelson_2002');
  mkdirSync(out, { recursive: true });
  const browser = await launchBrowser();
  const errors: string[] = [];
  const shots: Array<[string, string, string]> = [
    ['search', `/?view=search&q=${encodeURIComponent('estrogen replacement and heart disease')}`, '.result'],
    [
      'ask',
      `/?view=ask&collection=${collection}&question=${encodeURIComponent('Does estrogen replacement therapy increase the risk of ovarian cancer?')}`,
      '.answer',
    ],
    ['author', '/?view=author&id=A2555644867', '.metrics'],
    ['venue', '/?view=venue&id=S172573765', '.venue h1'],
    ['trends', `/?view=trends&topics=C2777164284,C2779279991&from=1990&to=2002&collection=${collection}`, 'polyline'],
    ['map-coauthorship', `/?view=network&kind=COAUTHORSHIP&collection=${collection}`, MAP_READY],
    ['map-cocitation', `/?view=network&kind=COCITATION&collection=${collection}`, MAP_READY],
    ['map-coupling', `/?view=network&kind=COUPLING&collection=${collection}`, MAP_READY],
    ['map-topics', `/?view=network&kind=TOPIC_COOCCURRENCE&collection=${collection}`, MAP_READY],
    ['map-citation', `/?view=network&kind=CITATION&colour=year&collection=${collection}`, '.network, .empty-map'],
    ['explorer', '/graphql', '.graphiql-container'],
  ];
  try {
    for (const [name, address, ready] of shots) {
      const page = await browser.newPage();
      page.on('pageerror', (error) => errors.push(`${name}: ${String(error)}`));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`${name}: ${message.text()}`);
      });
      await page.goto(`${base}${address}`, { waitUntil: 'networkidle0' });
      await page.waitForSelector(ready, { timeout: 60_000 });
      if (name.startsWith('map-')) {
        await page.waitForFunction(
          "(window.__citegraphMap && window.__citegraphMap.nodes.length > 0) || document.querySelector('.empty-map')",
          { timeout: 60_000 },
        );
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: name !== 'explorer' });
      process.stdout.write(`${path.relative(PROJECT_ROOT, path.join(out, `${name}.png`))}\n`);
      if (name === 'ask' && (await page.$('.answer-text a.marker'))) {
        await page.click('.answer-text a.marker');
        await page.waitForSelector('mark#quoted', { timeout: 20_000 });
        await page.screenshot({ path: path.join(out, 'paper.png'), fullPage: true });
        process.stdout.write(`${path.relative(PROJECT_ROOT, path.join(out, 'paper.png'))}\n`);
      }
      await page.close();
    }
  } finally {
    await browser.close();
  }
  if (errors.length) {
    process.stderr.write(`${errors.join('\n')}\n`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
