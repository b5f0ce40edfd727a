import path from 'node:path';
import { readWorks, ScholarlyWorld } from '../../scripts/lib/scholarly-world';
import { loadSettings, PROJECT_ROOT } from '../../src/config/settings';
import { FetchService } from '../../src/external/fetch-service';
import { questionPortfolios } from '../../src/pipeline/portfolios';
import { RequestContext } from '../../src/request-context';

/** The bundled sample's real OpenAlex records (American spelling: "estrogen"). */
const world = new ScholarlyWorld(readWorks(path.join(PROJECT_ROOT, 'data', 'sample', 'nelson-2002.jsonl.gz')));
let env: Record<string, string>;

const clients = (overrides: Record<string, string> = {}) =>
  loadSettings({ ...env, CITEGRAPH_HTTP_TIMEOUT_MS: '2000', ...overrides }).clients;

beforeAll(async () => {
  env = await world.start();
});

afterAll(async () => {
  await world.stop();
});

// British spelling, against records that spell it the American way.
const QUESTION = 'oestrogen replacement therapy and ovarian cancer';
/** Estrogen Replacement Therapy and Ovarian Cancer Mortality in a Large Prospective Study of US Women (JAMA 2001). */
const RODRIGUEZ = 'W2140782377';

describe('search portfolios against the three APIs (a local stand-in over the sample records)', () => {
  it('sends each portfolio in each provider’s own form, and the other spelling finds what the question’s missed', async () => {
    const fetch = new FetchService(clients());
    const from = world.requests.length;
    try {
      const report = await fetch.searchPortfolios(RequestContext.create({ llm: null }), questionPortfolios(QUESTION), {
        cap: 10,
      });
      const sent = world.requests.slice(from);
      // general ×3, primary ×3, field: OpenAlex and Crossref, wildcard: Semantic Scholar only.
      expect(report.searches.map((s) => `${s.portfolio}@${s.source}`).sort()).toEqual(
        [
          'field@crossref',
          'field@openalex',
          'general@crossref',
          'general@openalex',
          'general@s2',
          'primary@crossref',
          'primary@openalex',
          'primary@s2',
          'wildcard@s2',
        ].sort(),
      );
      expect(report.searches.every((s) => s.error === null)).toBe(true);
      const openalex = sent.filter((r) => r.provider === 'openalex').map((r) => r.params);
      expect(openalex.map((p) => p.search ?? p.filter)).toEqual(
        expect.arrayContaining([
          QUESTION,
          '((oestrogen AND replacement AND therapy) OR (estrogen AND replacement AND therapy)) AND (ovarian AND cancer)',
          'title_and_abstract.search:((oestrogen AND replacement AND therapy) OR (estrogen AND replacement AND therapy)) AND (ovarian AND cancer)',
        ]),
      );
      const bulk = sent.filter((r) => r.path === '/graph/v1/paper/search/bulk').map((r) => r.params);
      expect(bulk.map((p) => p.sort)).toEqual(['citationCount:desc', 'citationCount:desc']);
      expect(bulk.map((p) => p.query)).toContain(
        // "therapy" is a noise word: no part of a truncated query.
        '((oestrogen* + replacemen*) | (estrogen* + replacemen*)) + (ovarian* + cancer*)',
      );
      expect(sent.some((r) => r.provider === 'crossref' && r.params['query.bibliographic'])).toBe(true);

      // OpenAlex matches whole words: the question as written finds nothing there; its primary portfolio does.
      const found = (name: string) => report.searches.find((s) => `${s.portfolio}@${s.source}` === name)!.found;
      expect(found('general@openalex')).toBe(0);
      expect(found('primary@openalex')).toBeGreaterThan(0);

      // One work, however many searches found it: merged by DOI across providers, every place it was found kept.
      const rodriguez = report.merged.filter((w) => w.record.ids.openalex === RODRIGUEZ);
      expect(rodriguez).toHaveLength(1);
      expect(rodriguez[0]!.sources.sort()).toEqual(['crossref', 'openalex', 's2']);
      expect(new Set(rodriguez[0]!.hits.map((h) => h.portfolio))).toEqual(
        new Set(['general', 'primary', 'field', 'wildcard']),
      );
      expect(rodriguez[0]!.hits.every((h) => h.rank >= 1 && h.rank <= 10)).toBe(true);
      const dois = report.merged.map((w) => w.record.doi).filter(Boolean);
      expect(new Set(dois).size).toBe(dois.length);
    } finally {
      await fetch.close();
    }
  });

  it('a provider that cannot be reached fails its own searches; the others still answer', async () => {
    const fetch = new FetchService(clients({ S2_BASE_URL: 'http://127.0.0.1:9' }));
    try {
      const report = await fetch.searchPortfolios(RequestContext.create({ llm: null }), questionPortfolios(QUESTION), {
        cap: 5,
      });
      const s2 = report.searches.filter((s) => s.source === 's2');
      expect(s2.length).toBe(3);
      expect(s2.every((s) => s.error !== null && s.found === 0)).toBe(true);
      expect(report.searches.filter((s) => s.source !== 's2').every((s) => s.error === null)).toBe(true);
      expect(report.merged.some((w) => w.record.ids.openalex === RODRIGUEZ)).toBe(true);
    } finally {
      await fetch.close();
    }
  });
});
