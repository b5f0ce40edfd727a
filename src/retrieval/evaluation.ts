import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { RequestContext } from '../request-context';
import { shortOpenAlexId } from '../text';
import {
  evaluateRanking,
  meanMetrics,
  meanOf,
  METRIC_NAMES,
  SCREENING_METRIC_NAMES,
  screeningMetrics,
  type Judgments,
  type QueryMetrics,
  type ScreeningMetrics,
} from './metrics';
import type { SearchOptions } from './search-types';
import type { SearchService } from './search-service';

/** A benchmark query set with its judgments, ids already mapped to graph ids. */
export interface EvaluationSet {
  readonly queries: ReadonlyArray<{ id: string; text: string }>;
  readonly qrels: ReadonlyMap<string, Judgments>;
}

function readText(file: string): string {
  const buffer = readFileSync(file);
  return (buffer[0] === 0x1f && buffer[1] === 0x8b ? gunzipSync(buffer) : buffer).toString('utf8');
}

/** BEIR queries.jsonl: {_id, text}. */
export function loadQueries(file: string): Array<{ id: string; text: string }> {
  return readText(file)
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line, index) => {
      const value = JSON.parse(line) as { _id?: unknown; text?: unknown };
      if ((typeof value._id !== 'string' && typeof value._id !== 'number') || typeof value.text !== 'string') {
        throw new Error(`${file}:${index + 1}: a query needs _id and text`);
      }
      return { id: String(value._id), text: value.text };
    });
}

/**
 * Judgments from a BEIR qrels TSV (`query-id corpus-id score`, corpus ids mapped by `mapDocId`), or from SYNERGY
 * label files (`openalex_id,doi,pmid,label_included`; a folder of them, one per query named after the file).
 */
export function loadQrels(source: string, mapDocId: (id: string) => string): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>();
  const add = (query: string, doc: string, grade: number) => {
    const judgments = qrels.get(query) ?? new Map<string, number>();
    judgments.set(doc, grade);
    qrels.set(query, judgments);
  };
  const files =
    existsSync(source) && statSync(source).isDirectory()
      ? readdirSync(source)
          .filter((name) => name.endsWith('.csv'))
          .sort()
          .map((name) => path.join(source, name))
      : [source];
  for (const file of files) {
    const lines = readText(file)
      .split('\n')
      .filter((line) => line.trim().length > 0);
    if (lines[0]?.startsWith('openalex_id,')) {
      const query = path.basename(file).replace(/\.csv$/, '');
      for (const line of lines.slice(1)) {
        const [openalex, , , label] = line.split(',');
        const id = shortOpenAlexId(openalex);
        if (id) add(query, id, Number(label) > 0 ? 1 : 0);
      }
      continue;
    }
    for (const line of lines) {
      const [query, doc, score] = line.split(/\t|\s+/);
      if (!query || !doc || query === 'query-id') continue;
      add(query, mapDocId(doc), Number(score ?? 1));
    }
  }
  return qrels;
}

export interface EvaluationConfig {
  readonly name: string;
  readonly options: Partial<SearchOptions>;
}

export interface EvaluationRun {
  config: EvaluationConfig;
  mean: QueryMetrics;
  perQuery: Array<{ id: string; metrics: QueryMetrics }>;
  latency: { p50: number; p95: number; mean: number };
  queries: number;
  /** With `screening`: the measures of the whole candidate set ranked (its judged records), per query and averaged. */
  screening?: { mean: ScreeningMetrics; perQuery: Array<{ id: string; total: number; metrics: ScreeningMetrics }> };
}

/** The ablation ladder: each retriever alone, fused, then each stage added to the fused default. */
export function ablationConfigs(base: Partial<SearchOptions> = {}): EvaluationConfig[] {
  const off = { expansion: false, citation: false, pagerank: false, mmr: false };
  return [
    { name: 'BM25 only', options: { ...base, ...off, dense: false, sparse: true } },
    { name: 'dense only', options: { ...base, ...off, sparse: false, dense: true } },
    { name: 'fused w=0.9/0.1', options: { ...base, ...off, denseWeight: 0.9, sparseWeight: 0.1 } },
    { name: 'fused equal weights', options: { ...base, ...off, denseWeight: 0.5, sparseWeight: 0.5 } },
    { name: '+ expansion (PRF, DF-validated)', options: { ...base, ...off, expansion: true } },
    { name: '+ citation signal', options: { ...base, ...off, citation: true } },
    { name: '+ personalised PageRank', options: { ...base, ...off, pagerank: true } },
    { name: '+ MMR', options: { ...base, ...off, mmr: true } },
  ];
}

/** The p-th percentile (nearest rank) of ascending values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * Runs every judged query through search (restricted to the evaluated collection, or to the collection named by
 * the query id) and scores the ranking. Queries without any relevant judgment are not scored, as in BEIR.
 */
export async function evaluate(
  ctx: RequestContext,
  search: SearchService,
  set: EvaluationSet,
  config: EvaluationConfig,
  scope: { collection?: string; collectionPerQuery?: boolean; screening?: boolean },
  depth = 100,
): Promise<EvaluationRun> {
  const perQuery: Array<{ id: string; metrics: QueryMetrics }> = [];
  const screening: Array<{ id: string; total: number; metrics: ScreeningMetrics }> = [];
  const latencies: number[] = [];
  for (const query of set.queries) {
    const judgments = set.qrels.get(query.id);
    if (!judgments || ![...judgments.values()].some((grade) => grade > 0)) continue;
    const collections = scope.collectionPerQuery ? [query.id] : scope.collection ? [scope.collection] : null;
    const started = process.hrtime.bigint();
    const response = await search.search(ctx, query.text, depth, { collections }, { ...config.options, passages: 0 });
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    perQuery.push({
      id: query.id,
      metrics: evaluateRanking(
        response.results.map((result) => result.paper.id),
        judgments,
      ),
    });
    if (scope.screening) {
      // The candidate set is every judged record (SYNERGY labels judge every record a review's search found).
      const total = judgments.size;
      const order = await search.screeningOrder(ctx, query.text, total, { collections }, config.options);
      screening.push({
        id: query.id,
        total,
        metrics: screeningMetrics(
          order.filter((id) => judgments.has(id)),
          judgments,
          total,
        ),
      });
    }
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    config,
    mean: meanMetrics(perQuery.map((entry) => entry.metrics)),
    perQuery,
    latency: {
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      mean: latencies.reduce((a, b) => a + b, 0) / (latencies.length || 1),
    },
    queries: perQuery.length,
    ...(scope.screening
      ? {
          screening: {
            mean: meanOf(
              screening.map((entry) => entry.metrics),
              SCREENING_METRIC_NAMES,
            ),
            perQuery: screening,
          },
        }
      : {}),
  };
}

/** Screening measures per query and configuration, as markdown. */
export function screeningTable(title: string, runs: readonly EvaluationRun[]): string {
  const lines = [
    `### ${title}: screening the whole candidate set`,
    '',
    `| configuration | query | records | ${SCREENING_METRIC_NAMES.join(' | ')} |`,
    `|---|---|---|${SCREENING_METRIC_NAMES.map(() => '---').join('|')}|`,
  ];
  const cell = (name: keyof ScreeningMetrics, value: number) =>
    name === 'screenedFor95' ? value.toFixed(0) : value.toFixed(3);
  for (const run of runs) {
    if (!run.screening) continue;
    for (const entry of run.screening.perQuery)
      lines.push(
        `| ${run.config.name} | ${entry.id} | ${entry.total} | ${SCREENING_METRIC_NAMES.map((name) => cell(name, entry.metrics[name])).join(' | ')} |`,
      );
    lines.push(
      `| ${run.config.name} | **mean** | | ${SCREENING_METRIC_NAMES.map((name) => cell(name, run.screening!.mean[name])).join(' | ')} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The runs as a markdown table. */
export function markdownTable(title: string, runs: readonly EvaluationRun[]): string {
  const header = `| configuration | queries | ${METRIC_NAMES.join(' | ')} | p50 ms | p95 ms |`;
  const rule = `|---|---|${METRIC_NAMES.map(() => '---').join('|')}|---|---|`;
  const rows = runs.map(
    (run) =>
      `| ${run.config.name} | ${run.queries} | ${METRIC_NAMES.map((name) => run.mean[name].toFixed(4)).join(' | ')} | ${run.latency.p50.toFixed(0)} | ${run.latency.p95.toFixed(0)} |`,
  );
  return [`### ${title}`, '', header, rule, ...rows, ''].join('\n');
}
