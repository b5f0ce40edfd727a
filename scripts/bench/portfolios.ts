/**
 * Portfolio ablation (issue 31, item 2): external search by search portfolios (src/external/portfolios.ts) against a
 * local stand-in of the three APIs answering from the 7,233 real SYNERGY records (scripts/lib/scholarly-world.ts —
 * real records, simulated ranking; read its header before quoting a figure). For each subject of
 * data/questions/topic-subjects.jsonl (part "tuned" is dev: looked at when the defaults were chosen; "unseen" is
 * held out: only reported), the real clients send each configuration's searches over HTTP, the pipeline's merge and
 * rescoring keep the best 15 within the vetting threshold, and the figures say:
 *
 * - on-topic: share of the kept works among the review's own candidates (the records its search screened);
 * - included: the review's included papers among the kept works (of at most 15), and the share of its included papers
 *   anywhere in the merged pool (pool recall);
 * - pool: distinct works merged; calls: HTTP requests made.
 *
 *   node dist/scripts/bench/portfolios.js [--data ../shared/data]
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadSettings, PROJECT_ROOT } from '../../src/config/settings';
import { cosine, OnnxSentenceEmbedder } from '../../src/embedding/embedder';
import { FetchService } from '../../src/external/fetch-service';
import { PORTFOLIO_NAMES, type PortfolioName } from '../../src/external/portfolios';
import type { ProviderName } from '../../src/external/provider-base';
import { CONSENSUS_WEIGHT, questionPortfolios, rescoreFinds } from '../../src/pipeline/portfolios';
import { RequestContext } from '../../src/request-context';
import { loadQrels } from '../../src/retrieval/evaluation';
import { readWorks, ScholarlyWorld } from '../lib/scholarly-world';
import { argument, runWhenMain } from './env';

interface Subject {
  review: string;
  phrase: string;
  part: 'tuned' | 'unseen';
}

const KEPT = 15;
const VETTING = 0.35;

interface Configuration {
  name: string;
  portfolios: readonly PortfolioName[] | 'before';
  /** Consensus weight; null ranks by consensus alone. */
  weight: number | null;
  /** Works asked per search (the stage asks 10). */
  cap?: number;
}

const G: PortfolioName = 'general';
const CONFIGURATIONS: Configuration[] = [
  { name: 'before: the question to each provider once', portfolios: 'before', weight: 0 },
  { name: 'general', portfolios: [G], weight: CONSENSUS_WEIGHT },
  { name: 'primary', portfolios: ['primary'], weight: CONSENSUS_WEIGHT },
  { name: 'field', portfolios: ['field'], weight: CONSENSUS_WEIGHT },
  { name: 'wildcard', portfolios: ['wildcard'], weight: CONSENSUS_WEIGHT },
  { name: 'general+primary', portfolios: [G, 'primary'], weight: CONSENSUS_WEIGHT },
  {
    name: 'general+primary+field (content and current-world default)',
    portfolios: [G, 'primary', 'field'],
    weight: CONSENSUS_WEIGHT,
  },
  { name: 'all four (bibliometric default)', portfolios: PORTFOLIO_NAMES, weight: CONSENSUS_WEIGHT },
  { name: 'all but general', portfolios: ['primary', 'field', 'wildcard'], weight: CONSENSUS_WEIGHT },
  { name: 'all but primary', portfolios: [G, 'field', 'wildcard'], weight: CONSENSUS_WEIGHT },
  { name: 'all but field', portfolios: [G, 'primary', 'wildcard'], weight: CONSENSUS_WEIGHT },
  { name: 'all four, consensus weight 0.02', portfolios: PORTFOLIO_NAMES, weight: 0.02 },
  { name: 'all four, consensus weight 0.05', portfolios: PORTFOLIO_NAMES, weight: 0.05 },
  { name: 'all four, consensus weight 0.1', portfolios: PORTFOLIO_NAMES, weight: 0.1 },
  { name: 'all four, consensus only', portfolios: PORTFOLIO_NAMES, weight: null },
  { name: 'all four, 25 per search', portfolios: PORTFOLIO_NAMES, weight: CONSENSUS_WEIGHT, cap: 25 },
];

function readAllWorks(dir: string): Array<Record<string, unknown>> {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl.gz'))
    .flatMap((name) => readWorks(path.join(dir, name)));
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const pct = (value: number) => `${(100 * value).toFixed(1)}%`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const shared = argument(args, '--data') ?? path.resolve(PROJECT_ROOT, '..', 'shared', 'data');
  const works = readAllWorks(path.join(shared, 'synergy', 'works'));
  const qrels = loadQrels(path.join(shared, 'synergy', 'labels'), (id) => id.replace('https://openalex.org/', ''));
  const subjects = readFileSync(path.join(PROJECT_ROOT, 'data', 'questions', 'topic-subjects.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Subject);
  const world = new ScholarlyWorld(works);
  const settings = loadSettings({ ...process.env, ...(await world.start()) });
  const embedder = await OnnxSentenceEmbedder.load(settings.model);
  // Graph ids of the world's records by DOI, so a work found only by Crossref (doi:…) counts as the record it is.
  const byDoi = new Map<string, string>();
  for (const work of works) {
    if (typeof work.doi === 'string')
      byDoi.set(
        work.doi.replace(/^https?:\/\/doi\.org\//, '').toLowerCase(),
        String(work.id).replace('https://openalex.org/', ''),
      );
  }
  const vectorOf = new Map<string, Float32Array>();
  type Row = {
    config: string;
    part: string;
    onTopic: number;
    included: number;
    poolRecall: number;
    pool: number;
    calls: number;
    kept: number;
  };
  const rows: Row[] = [];
  try {
    for (const subject of subjects) {
      const labels = qrels.get(subject.review)!;
      const included = new Set([...labels].filter(([, g]) => g > 0).map(([id]) => id));
      const [questionVector] = await embedder.embed([subject.phrase], 'query');
      for (const config of CONFIGURATIONS) {
        const before = world.requests.length;
        const ctx = RequestContext.create({ llm: null });
        // A client of its own per run: the response cache would answer a query another configuration already sent.
        const fetch = new FetchService(settings.clients);
        const cap = config.cap ?? 10;
        let merged;
        if (config.portfolios === 'before') {
          // The stage before portfolios: the question's text to OpenAlex (title and abstract), S2 and Crossref in turn.
          const reports = [];
          for (const source of ['openalex', 's2', 'crossref'] as ProviderName[])
            reports.push(await fetch.fetch(ctx, { search: subject.phrase, sources: [source], cap }));
          merged = reports.flatMap((r) => r.merged).map((work) => ({ ...work, hits: [] }));
        } else {
          const portfolios = questionPortfolios(subject.phrase, { names: config.portfolios });
          merged = (await fetch.searchPortfolios(ctx, portfolios, { cap })).merged;
        }
        await fetch.close();
        const graphId = (w: (typeof merged)[number]) =>
          w.record.ids.openalex ?? (w.record.doi ? byDoi.get(w.record.doi.toLowerCase()) : undefined) ?? w.record.id;
        const candidates = merged.filter((w) => w.record.title);
        const missing = candidates.filter((w) => !vectorOf.has(`${graphId(w)}|${w.record.abstract ? 1 : 0}`));
        const vectors = await embedder.embed(missing.map((w) => `${w.record.title}. ${w.record.abstract ?? ''}`));
        missing.forEach((w, i) => vectorOf.set(`${graphId(w)}|${w.record.abstract ? 1 : 0}`, vectors[i]!));
        const similarities = candidates.map((w) =>
          cosine(vectorOf.get(`${graphId(w)}|${w.record.abstract ? 1 : 0}`)!, questionVector!),
        );
        const rescored =
          config.weight === null
            ? rescoreFinds(candidates, similarities, 0).sort(
                (a, b) => b.consensus - a.consensus || b.similarity - a.similarity,
              )
            : rescoreFinds(candidates, similarities, config.weight);
        const seen = new Set<string>();
        const kept = rescored
          .filter((find) => find.similarity >= VETTING)
          .map((find) => graphId(find.work))
          .filter((id) => !seen.has(id) && seen.add(id))
          .slice(0, KEPT);
        const pool = new Set(candidates.map(graphId));
        rows.push({
          config: config.name,
          part: subject.part,
          onTopic: kept.length ? kept.filter((id) => labels.has(id)).length / kept.length : 0,
          included: kept.filter((id) => included.has(id)).length,
          poolRecall: [...included].filter((id) => pool.has(id)).length / included.size,
          pool: pool.size,
          calls: world.requests.length - before,
          kept: kept.length,
        });
      }
    }
    const lines = [
      `search portfolios over a local stand-in of OpenAlex, Crossref and Semantic Scholar holding ${world.size} real SYNERGY records (simulated ranking);`,
      `${subjects.length} subjects (dev = part "tuned", held-out = part "unseen"); at most ${KEPT} kept, similarity ≥ ${VETTING}; means per subject`,
      '',
      '| configuration | part | kept | on-topic | included kept | pool recall of included | pool | calls |',
      '|---|---|---|---|---|---|---|---|',
    ];
    for (const config of CONFIGURATIONS) {
      for (const [part, label] of [
        ['tuned', 'dev'],
        ['unseen', 'held-out'],
      ] as const) {
        const own = rows.filter((r) => r.config === config.name && r.part === part);
        lines.push(
          `| ${config.name} | ${label} (${own.length}) | ${mean(own.map((r) => r.kept)).toFixed(1)} | ${pct(mean(own.map((r) => r.onTopic)))} | ${mean(own.map((r) => r.included)).toFixed(2)} | ${pct(mean(own.map((r) => r.poolRecall)))} | ${mean(own.map((r) => r.pool)).toFixed(1)} | ${mean(own.map((r) => r.calls)).toFixed(1)} |`,
        );
      }
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await embedder.close();
    await world.stop();
  }
}

runWhenMain(module, 'bench:portfolios', main);
