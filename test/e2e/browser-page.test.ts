import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { labelOverlapShare } from '../../src/analytics/map-drawing';
import { clusterSpread } from '../../src/analytics/network-layout';
import { serveGraphQL } from '../../src/api/server';
import { launchBrowser } from '../../scripts/lib/browser';
import { createTestContext, ingestSample, removeCollections } from '../helpers/context';

const { Cite } = require('@citation-js/core') as { Cite: new (input: string) => { data: Array<{ title?: string }> } };

require('@citation-js/plugin-bibtex');

/**
 * The web page in a real browser (headless Chromium, puppeteer-core) over the bundled sample: a search typed at the
 * keyboard with its trace and export, an ask whose citation opens the quoted passage highlighted in its paper, an
 * author, topic trends and the collaboration network — with no console error and nothing fetched from elsewhere.
 */
const OWN = 'browser-sample';
const { app } = createTestContext({ CITEGRAPH_EXTERNAL_SEARCH: 'false', OPENAI_BASE_URL: '', OPENAI_API_KEY: '' });
let base = '';
let stop: () => Promise<void> = () => Promise.resolve();
let browser: Browser;
const errors: string[] = [];
const requested: string[] = [];

beforeAll(async () => {
  await ingestSample(app, OWN);
  let url: string;
  ({ url, stop } = await serveGraphQL(app, 0, '127.0.0.1'));
  base = new URL(url).origin;
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await stop();
  await removeCollections(app, [OWN]);
  await app.close();
});

async function open(query: string, fresh?: Page): Promise<Page> {
  const page = fresh ?? (await browser.newPage());
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${query}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${query}: ${String(error)}`));
  page.on('requestfailed', (request) => {
    // A stream the page closes on leaving the view (the answer is in) is aborted on purpose.
    if (request.failure()?.errorText === 'net::ERR_ABORTED' && request.url().endsWith('/graphql/stream')) return;
    errors.push(`${query}: failed ${request.url()} ${request.failure()?.errorText ?? ''}`);
  });
  page.on('request', (request) => requested.push(request.url()));
  await page.goto(`${base}/${query}`, { waitUntil: 'networkidle0' });
  return page;
}

describe('the web page in a browser', () => {
  it('searches from the keyboard, shows each result with its trace, and exports the results as BibTeX', async () => {
    const page = await open('');
    // The query box has the focus: type and press Enter.
    await page.keyboard.type('estrogen replacement and heart disease');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.result', { timeout: 30_000 });
    expect(page.url()).toContain('view=search');
    expect(page.url()).toContain('q=estrogen+replacement+and+heart+disease');
    const results = await page.$$eval('.result', (nodes) => nodes.map((n) => n.textContent ?? ''));
    expect(results.length).toBeGreaterThan(5);
    for (const text of results) expect(text).toMatch(/score \d\.\d{4} · BM25 (#\d+|–) · dense (#\d+|–) · fused #\d+/);
    // Each result says who wrote it, where, and how often it is cited.
    const bylines = await page.$$eval('.result .byline', (nodes) => nodes.map((n) => n.textContent ?? ''));
    expect(bylines).toHaveLength(results.length);
    for (const text of bylines) expect(text).toMatch(/\d+ citations \(\d+ in the graph\)$/);
    expect(bylines.filter((text) => /^[^·]+ · [^·]+ · \d+ citations/.test(text)).length).toBeGreaterThan(
      results.length / 2,
    );
    const link = await page.$eval('a.export', (a) => a.getAttribute('href')!);
    expect(link).toMatch(/^\/export\/papers\?format=bibtex&ids=W\d+/);
    const exported = new Cite(await (await fetch(`${base}${link}`)).text()).data;
    const titles = await page.$$eval('.result .title a', (nodes) => nodes.map((n) => n.textContent));
    expect(exported.map((e) => e.title)).toEqual(titles);
    await page.close();
  });

  it('asks, and a citation opens the quoted passage highlighted in its paper', async () => {
    const question = 'Does estrogen replacement therapy increase the risk of ovarian cancer?';
    const page = await open(`?view=ask&question=${encodeURIComponent(question)}&collection=${OWN}`);
    await page.waitForSelector('.answer', { timeout: 60_000 });
    const markers = await page.$$eval('.answer-text a.marker', (nodes) =>
      nodes.map((n) => ({ quote: n.getAttribute('title')!, href: n.getAttribute('href')! })),
    );
    expect(markers.length).toBeGreaterThan(0);
    expect(await page.$$eval('.dimensions tbody tr', (rows) => rows.length)).toBeGreaterThanOrEqual(5);
    expect(await page.$$eval('.stages tbody tr', (rows) => rows.length)).toBeGreaterThan(5);
    expect(await page.$eval('.route', (n) => n.textContent)).toMatch(/^Route: content/);
    await page.click('.answer-text a.marker');
    await page.waitForSelector('mark#quoted', { timeout: 20_000 });
    expect(page.url()).toContain(markers[0]!.href.replace(/^\//, ''));
    expect(await page.$eval('mark#quoted', (n) => n.textContent)).toBe(markers[0]!.quote);
    // The paper page: its lists and its citation neighbourhood.
    const headings = await page.$$eval('h2', (nodes) => nodes.map((n) => n.textContent ?? ''));
    expect(headings.some((h) => /^References \(\d+\)$/.test(h))).toBe(true);
    expect(headings.some((h) => /^Cited by \(\d+\)$/.test(h))).toBe(true);
    await page.close();
  });

  it("shows an author, a paper's place in its venue, trends of two topics and the collaboration network", async () => {
    const author = await open('?view=author&id=A2555644867');
    await author.waitForSelector('.metrics', { timeout: 20_000 });
    expect(await author.$eval('h1', (n) => n.textContent)).toBe('Deborah Grady');
    const metrics = await author.$$eval('.metrics div', (nodes) => nodes.map((n) => n.textContent ?? ''));
    expect(metrics[0]).toMatch(/^papers\d+$/);
    await author.close();

    // A paper shows where it appeared as a reference list prints it (the raw record: JAMA 273(3), pages 199–208).
    const paper = await open('?view=paper&id=W4254959959');
    await paper.waitForSelector('.meta', { timeout: 20_000 });
    expect(await paper.$eval('.meta', (n) => n.textContent)).toMatch(/^1995 · JAMA 273\(3\):199–208 · /);
    await paper.close();

    const trends = await open(`?view=trends&topics=C2777164284,C2779279991&from=1990&to=2002&collection=${OWN}`);
    await trends.waitForSelector('polyline.series', { timeout: 20_000 });
    expect(await trends.$$eval('polyline.series', (nodes) => nodes.length)).toBe(2);
    expect(await trends.$$eval('.legend', (nodes) => nodes.map((n) => n.textContent))).toEqual([
      expect.stringMatching(/^Estrogen: \d+ papers/),
      expect.stringMatching(/^Testosterone \(patch\): \d+ papers/),
    ]);
    await trends.close();

    const network = await open(`?view=network&collection=${OWN}`);
    await network.waitForFunction(() => (globalThis as unknown as MapWindow).__citegraphMap?.nodes.length, {
      timeout: 30_000,
    });
    // The page's download links give the network as files Gephi and VOSviewer open.
    const links = await network.$$eval('.exports a.export', (nodes) => nodes.map((n) => n.getAttribute('href')!));
    expect(links).toHaveLength(6);
    const graphml = await fetch(`${base}${links[1]}`);
    expect(graphml.headers.get('content-disposition')).toBe('attachment; filename="citegraph-coauthorship.graphml"');
    const xml = await graphml.text();
    expect(xml).toMatch(/^<\?xml[\s\S]*<graphml/);
    expect((xml.match(/<node /g) ?? []).length).toBeGreaterThan(5);
    await network.close();
  });

  /** What the map drew, in the canvas's pixels, as the page publishes it. */
  interface DrawnMap {
    kind: string;
    width: number;
    height: number;
    nodes: Array<{ id: string; x: number; y: number; r: number; cluster: number }>;
    labels: Array<{ id: string; left: number; top: number; width: number; height: number }>;
    /** The node whose neighbours are highlighted, and those neighbours. */
    selected: string | null;
    neighbours: string[];
  }
  interface MapWindow {
    __citegraphMap?: DrawnMap;
  }
  // The functions handed to page.evaluate run in the browser; the tests compile without the DOM library, so these are
  // the few browser names they use.
  interface PixelBoard {
    width: number;
    height: number;
    getContext(kind: '2d'): {
      drawImage(image: unknown, x: number, y: number): void;
      getImageData(x: number, y: number, width: number, height: number): { data: Uint8ClampedArray };
    } | null;
  }
  interface BrowserGlobals {
    document: { createElement(tag: 'canvas'): PixelBoard };
    Image: new () => { onload: (() => void) | null; src: string; naturalWidth: number; naturalHeight: number };
  }

  /**
   * Reads the map's pixels from a screenshot of its canvas: for each node whether its centre is painted (not the white
   * background), and for each label whether its box holds dark ink.
   */
  async function paintedPixels(
    page: Page,
    map: DrawnMap,
  ): Promise<{ nodes: boolean[]; labels: boolean[]; colours: number[][] }> {
    const canvas = (await page.$('.map-canvas'))!;
    const shot = Buffer.from(await canvas.screenshot({ encoding: 'binary' })).toString('base64');
    return page.evaluate(
      async (png, drawn) => {
        const { document, Image } = globalThis as unknown as BrowserGlobals;
        const image = new Image();
        await new Promise<void>((resolve) => {
          image.onload = resolve;
          image.src = `data:image/png;base64,${png}`;
        });
        const board = document.createElement('canvas');
        board.width = image.naturalWidth;
        board.height = image.naturalHeight;
        const context = board.getContext('2d')!;
        context.drawImage(image, 0, 0);
        const pixel = (x: number, y: number) => context.getImageData(Math.round(x), Math.round(y), 1, 1).data;
        const painted = (x: number, y: number) => {
          const [r, g, b] = pixel(x, y);
          return r! < 235 || g! < 235 || b! < 235;
        };
        const inked = (box: { left: number; top: number; width: number; height: number }) => {
          const data = context.getImageData(
            Math.round(box.left),
            Math.round(box.top),
            Math.ceil(box.width),
            Math.ceil(box.height),
          ).data;
          for (let i = 0; i < data.length; i += 4)
            if (data[i]! < 110 && data[i + 1]! < 110 && data[i + 2]! < 110) return true;
          return false;
        };
        return {
          nodes: drawn.nodes.map((n) => painted(n.x, n.y)),
          labels: drawn.labels.map(inked),
          colours: drawn.nodes.map((n) => [...pixel(n.x, n.y)].slice(0, 3)),
        };
      },
      shot,
      map,
    );
  }

  it('draws co-authorship and co-citation maps a reader can read: inside the frame, labels apart, clusters together', async () => {
    for (const kind of ['COAUTHORSHIP', 'COCITATION']) {
      const page = await open(`?view=network&collection=${OWN}&kind=${kind}`);
      await page.waitForFunction(() => (globalThis as unknown as MapWindow).__citegraphMap?.nodes.length, {
        timeout: 30_000,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const map = (await page.evaluate(() => (globalThis as unknown as MapWindow).__citegraphMap))!;
      expect(map.kind).toBe(kind);
      expect(map.nodes.length).toBeGreaterThan(20);
      // Every disc lies inside the canvas and keeps clear of its border.
      for (const node of map.nodes) {
        expect(node.x - node.r).toBeGreaterThan(4);
        expect(node.y - node.r).toBeGreaterThan(4);
        expect(node.x + node.r).toBeLessThan(map.width - 4);
        expect(node.y + node.r).toBeLessThan(map.height - 4);
      }
      // Most nodes carry a label, each inside the canvas, and labels do not overlap each other.
      expect(map.labels.length).toBeGreaterThan(map.nodes.length * 0.4);
      expect(labelOverlapShare(map.labels)).toBeLessThanOrEqual(0.02);
      for (const label of map.labels) {
        expect(label.left).toBeGreaterThanOrEqual(0);
        expect(label.left + label.width).toBeLessThanOrEqual(map.width);
      }
      // Clusters sit together: members much nearer their cluster's centre than nodes to the map's.
      expect(clusterSpread(map.nodes)).toBeLessThan(kind === 'COAUTHORSHIP' ? 0.6 : 0.85);
      // And it is all really on screen: WebGL painted every node's centre, and every label box holds text.
      const pixels = await paintedPixels(page, map);
      expect(pixels.nodes.filter(Boolean).length).toBe(map.nodes.length);
      expect(pixels.labels.filter(Boolean).length).toBe(map.labels.length);
      // Named clusters in the legend, and the timeline of clusters over the years.
      const clusters = await page.$$eval('.clusters li', (items) => items.map((li) => li.textContent ?? ''));
      expect(clusters.length).toBeGreaterThan(1);
      for (const text of clusters) expect(text).toMatch(/^[a-z0-9-]+(, [a-z0-9-]+)* · \d+ nodes/);
      expect(await page.$$eval('.timeline .cluster-row', (rows) => rows.length)).toBeGreaterThan(1);
      await page.close();
    }
  });

  it('highlights a node found by name with its neighbours, and saves the map as SVG and PNG', async () => {
    // A browser context that saves downloads into a folder, so that the PNG is checked as the file a reader gets.
    const folder = mkdtempSync(path.join(tmpdir(), 'citegraph-png-'));
    const context = await browser.createBrowserContext({ downloadBehavior: { policy: 'allow', downloadPath: folder } });
    const page = await open(`?view=network&collection=${OWN}&kind=COAUTHORSHIP`, await context.newPage());
    await page.waitForFunction(() => (globalThis as unknown as MapWindow).__citegraphMap?.nodes.length, {
      timeout: 30_000,
    });
    await page.type('.map-search input', 'Deborah Grady');
    await page.click('.map-search button[type=submit]');
    await page.waitForSelector('.details', { timeout: 10_000 });
    expect(await page.$eval('.details a', (a) => a.textContent)).toBe('Deborah Grady');
    expect(await page.$eval('.details', (d) => d.textContent)).toMatch(/ · \d+ links · cluster \d+: /);
    // The node and its neighbours keep their colours; every other node fades to light grey on the canvas.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const shown = (await page.evaluate(() => (globalThis as unknown as MapWindow).__citegraphMap))!;
    const grady = shown.nodes.find((n) => n.id === shown.selected)!;
    expect(grady).toBeDefined();
    expect(shown.neighbours.length).toBeGreaterThan(0);
    const { colours } = await paintedPixels(page, shown);
    const grey = (rgb: number[]) => rgb.every((c) => Math.abs(c - 228) <= 6);
    const kept = new Set([shown.selected, ...shown.neighbours]);
    shown.nodes.forEach((node, i) => expect([node.id, grey(colours[i]!)]).toEqual([node.id, !kept.has(node.id)]));
    const svgLink = await page.$eval('.exports a.export', (a) => a.getAttribute('href')!);
    expect(svgLink).toMatch(/^\/export\/network\?format=svg&network=coauthorship&/);
    const svg = await (await fetch(`${base}${svgLink}`)).text();
    expect(svg).toMatch(/^<\?xml[\s\S]*<svg /);
    const drawn = (await page.evaluate(() => (globalThis as unknown as MapWindow).__citegraphMap))!;
    expect((svg.match(/<circle [^>]*data-id=/g) ?? []).length).toBe(drawn.nodes.length);
    // The PNG is the same SVG drawn on a canvas, twice its size.
    try {
      await page.click('button.export-png');
      const deadline = Date.now() + 20_000;
      while (!readdirSync(folder).includes('citegraph-coauthorship.png') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const png = readFileSync(path.join(folder, 'citegraph-coauthorship.png'));
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      // Twice the SVG's width (2000 px for the 1000-unit frame).
      expect(png.readUInt32BE(16)).toBe(2000);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await context.close();
    }
  });

  it('draws the main path of the citation network as a historiograph', async () => {
    const page = await open(`?view=network&collection=${OWN}&kind=CITATION`);
    await page.waitForSelector('.historiograph circle.path-paper', { timeout: 30_000 });
    const years = await page.$$eval('.historiograph text.year', (nodes) => nodes.map((n) => Number(n.textContent)));
    expect(years.length).toBeGreaterThan(1);
    expect([...years].sort((a, b) => a - b)).toEqual(years);
    expect(await page.$$eval('.historiograph line.path-link', (lines) => lines.length)).toBeGreaterThan(0);
    await page.close();
  });

  it('looks topics, authors, papers and venues up by name as the reader types', async () => {
    const trends = await open('?view=trends&from=1990&to=2002');
    // Suggestions appear as the reader types a name; Enter takes the exact name, else the best suggestion.
    await trends.type('input[data-lookup=topic]', 'Estrogen');
    await trends.waitForFunction(() => (globalThis as any).document.querySelectorAll('datalist option').length > 0, {
      timeout: 10_000,
    });
    const suggested = await trends.$$eval('datalist option', (options) => options.map((o) => o.getAttribute('value')));
    expect(suggested[0]).toMatch(/^Estrogen — \d+ papers · level \d$/);
    await trends.keyboard.press('Enter');
    await trends.type('input[data-lookup=topic]', 'Testosterone');
    await trends.keyboard.press('Enter');
    await trends.waitForFunction(() => (globalThis as any).document.querySelectorAll('.chosen li').length === 2, {
      timeout: 10_000,
    });
    await trends.click('form.query button[type=submit]');
    await trends.waitForSelector('polyline.series', { timeout: 20_000 });
    expect(trends.url()).toContain('topics=C2777164284%2CC2779279991');
    expect(await trends.$$eval('.legend', (nodes) => nodes.map((n) => n.textContent))).toEqual([
      expect.stringMatching(/^Estrogen: \d+ papers/),
      expect.stringMatching(/^Testosterone \(patch\): \d+ papers/),
    ]);
    await trends.close();

    const author = await open('?view=author');
    await author.type('input[data-lookup=author]', 'deborah grady');
    await author.keyboard.press('Enter');
    await author.waitForSelector('.metrics', { timeout: 20_000 });
    expect(author.url()).toContain('view=author&id=A2555644867');
    expect(await author.$eval('h1', (n) => n.textContent)).toBe('Deborah Grady');
    await author.close();

    const paper = await open('?view=paper');
    await paper.type('input[data-lookup=paper]', 'Heart and Estrogen/progestin Replacement Study');
    await paper.keyboard.press('Enter');
    await paper.waitForSelector('.meta', { timeout: 20_000 });
    expect((await paper.$eval('h1', (n) => n.textContent))!.toLowerCase()).toContain('estrogen');
    await paper.close();

    // A venue by name: its record, papers per year and most cited papers in the graph.
    const venue = await open('?view=venue');
    await venue.type('input[data-lookup=venue]', 'JAMA');
    await venue.keyboard.press('Enter');
    await venue.waitForSelector('.venue h1', { timeout: 20_000 });
    expect(await venue.$eval('.venue h1', (n) => n.textContent)).toBe('JAMA');
    expect(await venue.$eval('.venue .meta', (n) => n.textContent)).toMatch(
      /ISSN-L 0098-7484 · \d+ papers in the graph$/,
    );
    expect(await venue.$$eval('.venue rect.bar', (bars) => bars.length)).toBeGreaterThan(0);
    expect(await venue.$$eval('.venue ol.papers li', (items) => items.length)).toBeGreaterThan(0);
    await venue.close();
  });

  it('names a misspelt collection with the closest known one instead of drawing an empty map', async () => {
    const page = await open('?view=network&collection=Browser%20Sample');
    await page.waitForSelector('.error', { timeout: 20_000 });
    expect(await page.$eval('.error', (n) => n.textContent)).toMatch(
      new RegExp(`^filter.collections: no collection "Browser Sample"; closest: ${OWN}\\b`),
    );
    expect(await page.$$eval('.map-canvas', (nodes) => nodes.length)).toBe(0);
    await page.close();
  });

  it('writes a report: sections per front, each quote opening its passage, and its files to download', async () => {
    const page = await open(
      `?view=report&subject=${encodeURIComponent('hormone replacement therapy')}&collection=${OWN}`,
    );
    await page.waitForSelector('.report', { timeout: 60_000 });
    const headings = await page.$$eval('.report h3', (nodes) => nodes.map((n) => n.textContent ?? ''));
    expect(headings[0]).toBe('Introduction');
    expect(headings[headings.length - 1]).toBe('References');
    expect(headings.length).toBeGreaterThanOrEqual(4);
    const markers = await page.$$eval('.report a.marker', (nodes) =>
      nodes.map((n) => ({ quote: n.getAttribute('title')!, href: n.getAttribute('href')! })),
    );
    expect(markers.length).toBeGreaterThan(0);
    // Offline, every front says its sentences are quoted from its papers.
    const fronts = await page.$$eval('.report-section.front .muted', (nodes) => nodes.map((n) => n.textContent ?? ''));
    expect(fronts.length).toBe(headings.length - 3);
    for (const line of fronts)
      expect(line).toMatch(
        /^\d+ papers, \d{4}–\d{4}, median \d{4}; (?:burst \d{4}(?:–\d{4})?|no burst); \d+ on the main path; closeness [01]\.\d\d; quoted from its papers$/,
      );
    const references = await page.$$eval('.bibliography li', (nodes) => nodes.length);
    expect(new Set(markers.map((m) => m.href.match(/id=(W\d+)/)![1])).size).toBe(references);
    // The Markdown download has the sections the page shows.
    const link = await page.$eval('a.export', (a) => a.getAttribute('href')!);
    expect(link).toMatch(/^\/export\/report\?format=markdown&subject=hormone%20replacement%20therapy/);
    const markdown = await (await fetch(`${base}${link}`)).text();
    expect([...markdown.matchAll(/^## (.+)$/gm)].map((m) => m[1])).toEqual(headings);
    // A quote opens its paper with the quoted characters highlighted.
    await page.click('.report a.marker');
    await page.waitForSelector('mark#quoted', { timeout: 20_000 });
    expect(await page.$eval('mark#quoted', (n) => n.textContent)).toBe(markers[0]!.quote);
    await page.close();
  });

  it('loaded nothing from outside the service and logged no error', () => {
    expect(requested.length).toBeGreaterThan(10);
    // The ask view streams its answer (GraphQL over SSE), as docs/ask.md shows with curl.
    expect(requested.some((address) => address === `${base}/graphql/stream`)).toBe(true);
    for (const address of requested) expect(address.startsWith(base) || address.startsWith('data:')).toBe(true);
    expect(errors).toEqual([]);
  });
});
