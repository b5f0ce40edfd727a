import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { AppContext } from '../../app-context';
import { defaultCollection } from '../../ingest/record-ingest';
import { PROJECT_ROOT } from '../../config/settings';
import {
  ablationConfigs,
  evaluate,
  loadQrels,
  loadQueries,
  markdownTable,
  screeningTable,
  type EvaluationConfig,
  type EvaluationRun,
} from '../../retrieval/evaluation';
import type { SearchOptions } from '../../retrieval/search-types';
import { ensureDatabase } from '../database';
import { withApp } from '../shared';

export const EVAL_USAGE = `citegraph eval retrieval --queries FILE --qrels FILE|DIR [--corpus PATH...] [--collection NAME | --collection-per-query]
                         [--config JSON|FILE] [--ablation] [--screening] [--name NAME] [--out DIR] [--limit N]
  --corpus       ingest these files first (idempotent; BEIR corpus or OpenAlex works)
  --collection   evaluate inside this collection (default: from the corpus file name)
  --collection-per-query   each query is evaluated inside the collection named by its id (SYNERGY reviews)
  --config       search options for the default run, as JSON or a JSON file
  --ablation     BM25 only, dense only, fused (0.9/0.1 and equal), and each stage added, in one run
  --screening    also rank each query's whole judged set: recall at 5/10/20% screened and WSS@95 per query
`;

function parseConfig(value: string | undefined): Partial<SearchOptions> {
  if (!value) return {};
  const text = existsSync(value) ? readFileSync(value, 'utf8') : value;
  return JSON.parse(text) as Partial<SearchOptions>;
}

export async function evalRetrievalCommand(
  app: AppContext,
  args: string[],
  out: (text: string) => void,
): Promise<EvaluationRun[]> {
  const { values } = parseArgs({
    args,
    options: {
      corpus: { type: 'string', multiple: true },
      queries: { type: 'string' },
      qrels: { type: 'string' },
      collection: { type: 'string' },
      'collection-per-query': { type: 'boolean', default: false },
      config: { type: 'string' },
      ablation: { type: 'boolean', default: false },
      screening: { type: 'boolean', default: false },
      name: { type: 'string' },
      out: { type: 'string' },
      limit: { type: 'string' },
    },
  });
  if (!values.queries || !values.qrels) throw new Error(`eval retrieval needs --queries and --qrels\n\n${EVAL_USAGE}`);
  const corpus = (values.corpus ?? []).flatMap((entry) =>
    statSync(entry).isDirectory()
      ? readdirSync(entry)
          .filter((name) => /\.jsonl(\.gz)?$/.test(name))
          .sort()
          .map((name) => path.join(entry, name))
      : [entry],
  );
  const perQuery = values['collection-per-query'];
  const collection =
    values.collection ?? (corpus.length === 1 && !perQuery ? defaultCollection(corpus[0]!) : undefined);
  if (corpus.length > 0) {
    const summary = await app.ingest.ingestFiles(corpus, {
      embed: 'now',
      ...(collection && !perQuery ? { collection } : {}),
    });
    out(
      `corpus: ${summary.papersWritten} papers written, ${summary.papersUnchanged} unchanged, ${summary.skipped.length} skipped`,
    );
    app.search.invalidate();
  }
  const prefix = collection && !perQuery ? `${collection}:` : '';
  const queries = loadQueries(values.queries).slice(0, values.limit ? Number(values.limit) : undefined);
  const qrels = loadQrels(values.qrels, (id) => `${prefix}${id}`);
  const set = { queries, qrels };
  const base = parseConfig(values.config);
  const configs: EvaluationConfig[] = values.ablation
    ? [...ablationConfigs(base), { name: 'default configuration', options: base }]
    : [{ name: 'default configuration', options: base }];
  const runs: EvaluationRun[] = [];
  for (const config of configs) {
    const run = await evaluate(app.requestContext(), app.search, set, config, {
      ...(collection ? { collection } : {}),
      collectionPerQuery: perQuery,
      screening: values.screening,
    });
    runs.push(run);
    out(
      `${config.name}: nDCG@10 ${run.mean['nDCG@10'].toFixed(4)}  Recall@100 ${run.mean['Recall@100'].toFixed(4)}${run.screening ? `  WSS@95 ${run.screening.mean['WSS@95'].toFixed(4)}` : ''}  (${run.queries} queries, p50 ${run.latency.p50.toFixed(0)} ms)`,
    );
  }
  const name = values.name ?? (perQuery ? 'per-query-collections' : (collection ?? 'eval'));
  const title = `${name}: ${runs[0]?.queries ?? 0} queries${collection ? `, collection ${collection}` : ''}${perQuery ? ', each query in its own collection' : ''}`;
  const table = markdownTable(title, runs) + (values.screening ? `\n${screeningTable(name, runs)}` : '');
  const dir = values.out ?? path.join(PROJECT_ROOT, '.cache', 'eval');
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const base_ = path.join(dir, `${name}-${stamp}`);
  writeFileSync(
    `${base_}.json`,
    JSON.stringify({ name, collection, defaults: app.search.defaultOptions, runs }, null, 2),
  );
  writeFileSync(`${base_}.md`, table);
  out(`\n${table}\nwritten: ${base_}.json, ${base_}.md`);
  return runs;
}

/** `citegraph eval retrieval …` (its options without them). */
export async function evalCommand(args: string[]): Promise<void> {
  if (args[0] !== 'retrieval') {
    process.stdout.write(EVAL_USAGE);
    return;
  }
  await withApp(async (app) => {
    await ensureDatabase(app);
    await evalRetrievalCommand(app, args.slice(1), (text) => process.stdout.write(`${text}\n`));
  });
}
