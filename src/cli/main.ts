import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createAppContext, type AppContext } from '../app-context';
import { environmentHelp, loadSettings, PROJECT_ROOT } from '../config/settings';
import { badInput, CitegraphError } from '../errors';
import { closestNames } from '../text';
import { embeddedStatus, startEmbedded, stopEmbedded } from '../graph/embedded-server';
import { queries } from '../graph/query-registry';
import { applySchema, refreshAllAggregates } from '../graph/schema';
import { documentFormat } from '../documents/read-document';
import { formatSummary, type IngestFormat } from '../ingest/ingest-service';
import { serveGraphQL } from '../api/server';
import { bulkLoad } from './bulk-load';
import { ensureDatabase } from './database';
import { EXIT, exitCodeFor } from './exit-codes';
import { enrichPapers } from '../retrieval/enrichment';
import { EVAL_USAGE, evalRetrievalCommand } from './eval-command';
import type { SearchOptions } from '../retrieval/search-service';
import { exportNetwork, type NetworkFormat } from '../analytics/network-export';
import { BIBLIOGRAPHY_FORMAT_NAMES, type BibliographyFormat, bibliographyFormatNamed } from '../catalog/bibliography';
import { MAX_EXPORT, type PaperFile } from '../catalog/paper-export';
import { labelStubs, MAX_STUB_LABELS } from '../external/stub-labels';

const USAGE = `citegraph — a graph-centric knowledge service for scientific literature

usage:
  citegraph start                      database + schema + sample data when empty + GraphQL (what npm start runs)
  citegraph serve [--port N]           serve GraphQL on http://localhost:4000/graphql
  citegraph db start|stop|status|reset the embedded Neo4j (ignored parts when NEO4J_URI is set)
  citegraph db recount                 recount every stored aggregate (citation counts, totals, yearly counts)
  citegraph ingest PATH... [--format openalex|beir] [--collection NAME] [--defer-embedding] [--resolve-online]
                                       (records: .jsonl/.json[.gz]; documents: .pdf .md .html .txt;
                                       --resolve-online: references via Crossref/OpenAlex)
  citegraph embed                      embed chunks ingested with --defer-embedding
  citegraph bulk-load PATH... --replace-database [--collection NAME]
                                       OpenAlex/BEIR records → CSV → neo4j-admin import into a NEW embedded store
                                       (replaces the whole database; embeddings left for \`citegraph embed\`)
  citegraph collection delete NAME...  remove collections and everything only they held (papers, chunks, stubs, …)
  citegraph stats                      counts per label and relationship type (JSON)
  --json (ingest, embed, collection, db, schema, enrich, search, ask, fetch): the summary as JSON on stdout; stats,
  science, network and export print JSON or files anyway. Long work shows its progress on stderr (one line with
  rate and time left on a terminal, a plain line every 10 s otherwise). Exit codes: 0 done, 1 failure, 2 bad usage
  or input, 3 database unavailable, 4 partial (records skipped), 5 every external source failed.
  citegraph science disruption|impact|beauty ID | prior|derivative ID... | path ID ID [--undirected] |
                    lotka|bradford|beauties|main-path [--key-routes K]|clusters|topic-bursts|reference-bursts
                    [--collection C]...
                                       science-of-science measures as JSON (README, Science of science)
  citegraph network [--network coupling|cocitation|coauthorship|citation] [--format graphml|gexf|vosviewer-map|
                    vosviewer-network|csv] [--collection C]... [--max-nodes N] [--min-weight W] [--out FILE]
  citegraph search "TEXT" [--first N] [--collection C] [--options JSON] [--format F [--out FILE]]
  citegraph export --ids W1,W2,… | --collection C... [--format csv|jsonl|bibtex|ris|csl-json] [--first N] [--out FILE]
                                       paper lists as files for reference managers and spreadsheets
  citegraph ask "QUESTION" [--collection C] [--no-external] [--json]   a cited answer, or an abstention
  citegraph fetch --doi D | --search "TEXT" [--source openalex|crossref|s2]... [--cap N] [--ingest]
  citegraph fetch --stubs [--top N] [--collection C]   label the N most cited stubs (title, year, DOI) from OpenAlex
  citegraph enrich [--collection C] [--tau 0.1] [--max-terms 10] [--llm]   index vocabulary from citing titles (and the LLM)
  citegraph eval retrieval …           BEIR-style evaluation (citegraph eval for the options)
  citegraph help                       this text and the environment variables
`;

export const SAMPLE_DIR = path.join(PROJECT_ROOT, 'data', 'sample');

/**
 * The collection the bundled sample lands in: the name the same works have in SYNERGY (Nelson et al. 2002), so that
 * ingesting SYNERGY later adds to it instead of making a second collection of the same papers.
 */
export const SAMPLE_COLLECTION = 'Nelson_2002';

async function withApp<T>(work: (app: AppContext) => Promise<T>): Promise<T> {
  const app = createAppContext();
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}

async function dbCommand(action: string | undefined): Promise<void> {
  const settings = loadSettings();
  if (settings.neo4j.uri && action !== 'reset' && action !== 'status' && action !== 'recount') {
    say(`NEO4J_URI is set (${settings.neo4j.uri}): the embedded server is not used`, {
      external: settings.neo4j.uri,
      embedded: false,
    });
    return;
  }
  switch (action) {
    case 'start': {
      const status = await startEmbedded(settings);
      say(`running: ${status.uri} pid ${status.pid} data ${status.dataDir}`, status);
      return;
    }
    case 'stop': {
      const stopped = await stopEmbedded(settings);
      say(stopped ? 'stopped' : 'not running', { stopped });
      return;
    }
    case 'status': {
      if (settings.neo4j.uri) {
        await withApp(async (app) => {
          await app.executor.verifyConnectivity();
          say(`external database ${settings.neo4j.uri}: reachable`, { uri: settings.neo4j.uri, reachable: true });
        });
        return;
      }
      const status = await embeddedStatus(settings);
      say(
        `${status.running ? 'running' : 'stopped'}${status.pid ? ` (pid ${status.pid})` : ''}; ${status.uri} ${status.reachable ? 'reachable' : 'not reachable'}; data ${status.dataDir}`,
        status,
      );
      if (!status.running) process.exitCode = EXIT.DATABASE_UNAVAILABLE;
      return;
    }
    case 'reset':
      await withApp(async (app) => {
        await ensureDatabase(app);
        await app.executor.autoCommit(queries().clearDatabase({}));
        say('database emptied (schema kept)', { emptied: true });
      });
      return;
    case 'recount':
      await withApp(async (app) => {
        await ensureDatabase(app);
        const counts = await refreshAllAggregates(app.executor);
        say(
          `stored aggregates recounted: ${counts.papers} papers, ${counts.people} people, ${counts.venues} venues, ${counts.topics} topics`,
          counts,
        );
      });
      return;
    default:
      throw badInput(`db takes start, stop, status, reset or recount, not ${action ?? 'nothing'}`);
  }
}

async function ingestCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      format: { type: 'string' },
      collection: { type: 'string' },
      'defer-embedding': { type: 'boolean', default: false },
      'resolve-online': { type: 'boolean' },
    },
  });
  if (positionals.length === 0) throw badInput('ingest needs at least one PATH');
  if (values.format && values.format !== 'openalex' && values.format !== 'beir')
    throw badInput('--format is openalex or beir');
  const missing = positionals.filter((entry) => !existsSync(entry));
  if (missing.length > 0) throw badInput(`no such file or folder: ${missing.join(', ')}`);
  const files = positionals.flatMap((entry) =>
    isDirectory(entry)
      ? readdirSync(entry)
          .filter((name) => /\.(jsonl|json|ndjson)(\.gz)?$/.test(name) || documentFormat(name) !== null)
          .sort()
          .map((name) => path.join(entry, name))
      : [entry],
  );
  await withApp(async (app) => {
    await ensureDatabase(app);
    const summary = await app.ingest.ingestFiles(files, {
      format: values.format as IngestFormat | undefined,
      collection: values.collection,
      embed: values['defer-embedding'] ? 'defer' : 'now',
      resolveOnline: values['resolve-online'],
      // On a terminal one line redrawn with rate and time left; in a log, a plain line every ten seconds.
      progress: true,
    });
    say(formatSummary(summary), summary);
    // Records were skipped or an input was cut short: the summary above says which; the exit code says so too.
    if (summary.skipped.length > 0) process.exitCode = EXIT.PARTIAL;
  });
}

async function bulkLoadCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      collection: { type: 'string' },
      'replace-database': { type: 'boolean', default: false },
    },
  });
  if (positionals.length === 0) throw badInput('bulk-load needs at least one PATH');
  if (!values['replace-database'])
    throw badInput('bulk-load replaces the whole embedded database: pass --replace-database to say so');
  const missing = positionals.filter((entry) => !existsSync(entry));
  if (missing.length > 0) throw badInput(`no such file or folder: ${missing.join(', ')}`);
  const files = positionals.flatMap((entry) =>
    isDirectory(entry)
      ? readdirSync(entry)
          .filter((name) => /\.(jsonl|json|ndjson)(\.gz)?$/.test(name))
          .sort()
          .map((name) => path.join(entry, name))
      : [entry],
  );
  await withApp(async (app) => {
    const result = await bulkLoad(app, files, {
      ...(values.collection ? { collection: values.collection } : {}),
      progress: true,
    });
    say(
      `${formatSummary(result.summary)}\nbulk load: ${result.counts.papers} papers, ${result.counts.stubs} stubs, ${result.counts.authors} authors, ${result.counts.cites} citations, ${result.counts.chunks} chunks; CSV ${result.seconds.csv.toFixed(1)} s, import ${result.seconds.import.toFixed(1)} s, indexes and aggregates ${result.seconds.schema.toFixed(1)} s`,
      result,
    );
    if (result.summary.skipped.length > 0) process.exitCode = EXIT.PARTIAL;
  });
}

function isDirectory(entry: string): boolean {
  return existsSync(entry) && statSync(entry).isDirectory();
}

/** A bibliography format named on the command line (csv, jsonl, bibtex, ris, csl-json). */
function bibliographyFormat(name: string): BibliographyFormat {
  const format = bibliographyFormatNamed(name);
  if (!format) throw badInput(`--format must be one of ${BIBLIOGRAPHY_FORMAT_NAMES}; got "${name}"`);
  return format;
}

/** An export to a file (with a summary on stderr) or to stdout. */
function writeExport(file: PaperFile, out: string | undefined): void {
  if (out) {
    writeFileSync(out, file.content);
    process.stderr.write(
      `${file.papers} papers → ${out}${file.missing.length ? ` (not full papers of the graph: ${file.missing.join(', ')})` : ''}\n`,
    );
  } else process.stdout.write(file.content);
}

/** `citegraph export`: the papers of ids or of collections as a file. */
async function exportCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      format: { type: 'string', default: 'bibtex' },
      ids: { type: 'string' },
      collection: { type: 'string', multiple: true },
      first: { type: 'string', default: '1000' },
      out: { type: 'string' },
    },
  });
  const format = bibliographyFormat(values.format);
  if (!values.ids && !values.collection?.length) throw badInput('export needs --ids W1,W2,… or --collection NAME');
  await withApp(async (app) => {
    await ensureDatabase(app);
    await checkCollections(app, values.collection);
    const file = await app.exports.export(
      values.ids
        ? {
            ids: values.ids
              .split(',')
              .map((id) => id.trim())
              .filter((id) => id !== ''),
          }
        : { filter: { collections: values.collection! } },
      format,
      Number(values.first),
    );
    writeExport(file, values.out);
  });
}

async function searchCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      first: { type: 'string' },
      collection: { type: 'string', multiple: true },
      options: { type: 'string' },
      json: { type: 'boolean', default: false },
      format: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const query = positionals.join(' ');
  const format = values.format === undefined ? null : bibliographyFormat(values.format);
  await withApp(async (app) => {
    await ensureDatabase(app);
    await checkCollections(app, values.collection);
    const response = await app.search.search(
      app.requestContext(),
      query,
      values.first ? Number(values.first) : 10,
      { collections: values.collection ?? null },
      values.options ? (JSON.parse(values.options) as Partial<SearchOptions>) : undefined,
    );
    if (format) {
      const file = await app.exports.export({ ids: response.results.map((r) => r.paper.id) }, format, MAX_EXPORT);
      writeExport(file, values.out);
      return;
    }
    if (values.json) {
      process.stdout.write(`${JSON.stringify(response, null, 2)}\n`);
      return;
    }
    for (const result of response.results) {
      const t = result.trace;
      process.stdout.write(
        `${result.rank}. [${result.paper.id}] ${String(result.paper.title ?? '(no title)')} (${String(result.paper.year ?? 'n.d.')})\n` +
          `   score ${result.score.toFixed(4)}  sparse ${t.sparse ? `#${t.sparse.rank}` : '-'}  dense ${t.dense ? `#${t.dense.rank}` : '-'}` +
          `${t.moves.length ? `  moved: ${t.moves.map((m) => `${m.stage} ${m.from}→${m.to}`).join(', ')}` : ''}\n`,
      );
      for (const passage of result.passages.slice(0, 1)) {
        process.stdout.write(
          `   “${passage.text.slice(0, 220)}${passage.text.length > 220 ? '…' : ''}” [${passage.start}-${passage.end}]\n`,
        );
      }
    }
    const timings = Object.entries(response.trace.timings)
      .map(([stage, ms]) => `${stage} ${ms.toFixed(1)}`)
      .join(', ');
    process.stdout.write(
      `\nlucene: ${response.trace.luceneQuery ?? '-'}\nexpansion: ${response.trace.expansionTerms.join(', ') || '-'}\ntimings (ms): ${timings}\n`,
    );
  });
}

async function askCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      collection: { type: 'string', multiple: true },
      'no-external': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      route: { type: 'string' },
    },
  });
  await withApp(async (app) => {
    await ensureDatabase(app);
    await checkCollections(app, values.collection);
    const result = await app.ask.ask(app.requestContext(), positionals.join(' '), {
      collections: values.collection ?? null,
      externalSearch: values['no-external'] ? false : null,
      route: (values.route as never) ?? null,
    });
    if (values.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return;
    }
    const out: string[] = [`Q: ${result.question}`, `route: ${result.route} (${result.routeReasons.join('; ')})`, ''];
    out.push(result.abstained ? `ABSTAINED — ${result.abstentionReason}` : result.answer);
    if (result.sourceNote) out.push('', result.sourceNote);
    if (result.bibliography.length) {
      out.push('', 'References:');
      for (const entry of result.bibliography)
        out.push(
          `  [${entry.marker}] ${entry.paper.title ?? entry.paper.id} (${entry.paper.year ?? 'n.d.'})${entry.doiUrl ? ` ${entry.doiUrl}` : ''}`,
        );
      out.push('', 'Quotes:');
      for (const sentence of result.sentences) {
        for (const c of sentence.citations)
          out.push(
            `  [${c.marker}] “${c.quote.slice(0, 200)}” (${c.method}, support ${c.supportScore}, chars ${c.start}–${c.end})`,
          );
      }
    }
    out.push(
      '',
      `evidence: ${result.sufficiency.score}/100 ${result.sufficiency.band} — ${result.sufficiency.dimensions.map((d) => `${d.name} ${d.score}`).join(', ')}`,
    );
    if (result.gaps.length) out.push(`gaps: ${result.gaps.join('; ')}`);
    if (result.contradictions.length)
      out.push(`possible contradictions: ${result.contradictions.map((c) => c.note).join('; ')}`);
    if (result.externalSearches.length)
      out.push(
        `external: ${result.externalSearches.map((s) => `${s.source} ${s.error ? 'failed' : `${s.kept}/${s.found}`}`).join(', ')}`,
      );
    out.push(`time: ${result.trace.map((t) => `${t.stage} ${t.ms.toFixed(0)}ms`).join(', ')}`);
    out.push(
      `cost: ${result.cost.llmCalls} LLM calls, ${result.cost.promptTokens}+${result.cost.completionTokens} tokens, $${result.cost.estimatedUsd}; API calls ${JSON.stringify(result.cost.apiCalls)}`,
    );
    process.stdout.write(`${out.join('\n')}\n`);
  });
}

async function fetchCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      doi: { type: 'string' },
      search: { type: 'string' },
      source: { type: 'string', multiple: true },
      cap: { type: 'string' },
      ingest: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      stubs: { type: 'boolean', default: false },
      top: { type: 'string' },
      collection: { type: 'string' },
    },
  });
  if (values.stubs) return fetchStubLabels(values);
  const sources = (values.source ?? []).map((source) => {
    if (source !== 'openalex' && source !== 'crossref' && source !== 's2')
      throw badInput(`--source is openalex, crossref or s2, not ${source}`);
    return source;
  });
  await withApp(async (app) => {
    if (values.ingest) await ensureDatabase(app);
    const report = await app.external.fetch(app.requestContext(), {
      doi: values.doi,
      search: values.search,
      sources,
      cap: values.cap ? Number(values.cap) : undefined,
    });
    const written =
      values.ingest && report.merged.length > 0
        ? await app.ingest.writeFetched(report.merged.map((work) => work.record))
        : null;
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ ...report, written }, null, 2)}\n`);
      return;
    }
    for (const source of report.perSource) {
      process.stdout.write(
        `${source.source}: ${source.error ? `failed (${source.error.code}${source.error.retryable ? ', retryable' : ''}): ${source.error.message}` : `${source.found} found`}\n`,
      );
    }
    process.stdout.write(`\nmerged into ${report.merged.length} works:\n`);
    for (const work of report.merged) {
      const r = work.record;
      process.stdout.write(
        `- [${r.id}] ${r.title ?? '(no title)'} (${r.year ?? 'n.d.'})  sources: ${work.sources.join(', ')}  ids: ${Object.entries(
          r.ids,
        )
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}\n`,
      );
      process.stdout.write(
        `  fields from: ${Object.entries(work.provenance)
          .map(([field, source]) => `${field}←${source}`)
          .join(', ')}\n`,
      );
    }
    if (written) process.stdout.write(`\ngraph: ${formatSummary(written)}\n`);
    process.stdout.write(`calls: ${JSON.stringify(report.calls)}\n`);
    if (report.perSource.every((source) => source.error !== null)) process.exitCode = EXIT.SOURCES_FAILED;
  });
}

/** `citegraph fetch --stubs --top N [--collection C]`: labels the most cited stubs from OpenAlex. */
async function fetchStubLabels(values: { top?: string; collection?: string; json?: boolean }): Promise<void> {
  const top = Number(values.top ?? 100);
  if (!Number.isInteger(top) || top < 1 || top > MAX_STUB_LABELS)
    throw badInput(`--top is a whole number from 1 to ${MAX_STUB_LABELS}, got ${values.top}`);
  await withApp(async (app) => {
    await ensureDatabase(app);
    if (values.collection) await checkCollections(app, [values.collection]);
    const openalex = app.external.clients.openalex;
    const result = await labelStubs(app.executor, (ctx, id) => openalex.getWork(ctx, id), app.requestContext(), {
      top,
      collection: values.collection ?? null,
      source: 'openalex',
    });
    if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      process.stdout.write(
        `stubs: ${result.asked} looked up, ${result.labelled} labelled, ${result.notFound} not found, ${result.failed.length} failed\n`,
      );
      for (const failure of result.failed.slice(0, 10)) process.stdout.write(`  ${failure.id}: ${failure.error}\n`);
    }
    // Every lookup failed: nothing was learnt (offline, or OpenAlex refused).
    if (result.asked > 0 && result.failed.length === result.asked) process.exitCode = EXIT.SOURCES_FAILED;
  });
}

/**
 * Refuses collection names the graph does not hold (exit 2), naming the closest known ones: a misspelt name would
 * otherwise give an empty result or delete nothing without a word.
 */
async function checkCollections(app: AppContext, names: readonly string[] | undefined): Promise<void> {
  if (!names?.length) return;
  const known = (await app.catalog.collections()).map((entry) => entry.collection);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const hints = unknown.map((name) => {
    const close = closestNames(name, known);
    return `${name}${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}`;
  });
  throw badInput(
    `no such collection: ${hints.join('; ')}; the graph holds ${known.length} (citegraph stats lists them)`,
  );
}

async function collectionCommand(args: string[]): Promise<void> {
  const [action, ...names] = args;
  if (action !== 'delete' || names.length === 0) throw badInput('usage: citegraph collection delete NAME...');
  await withApp(async (app) => {
    await ensureDatabase(app);
    await checkCollections(app, names);
    const results = [];
    for (const name of names) {
      const done = await app.ingest.deleteCollection(name);
      results.push({ ...done, collection: name });
      if (!jsonOutput) {
        process.stdout.write(
          `${name}: ${done.papers} papers left the collection; ${done.deleted} removed, ${done.stubbed} kept as stubs (still cited), ${done.orphans} orphaned nodes removed\n`,
        );
      }
    }
    if (jsonOutput) say('', results);
  });
}

const NETWORKS = ['coupling', 'cocitation', 'coauthorship', 'citation'] as const;
const FORMATS = ['graphml', 'gexf', 'vosviewer_map', 'vosviewer_network', 'csv'] as const;

/** Writes a whole network of a collection (or the graph) as a file Gephi or VOSviewer opens (see networkExport). */
async function networkCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      network: { type: 'string', default: 'coupling' },
      format: { type: 'string', default: 'graphml' },
      collection: { type: 'string', multiple: true },
      'max-nodes': { type: 'string', default: '500' },
      'min-weight': { type: 'string', default: '1' },
      out: { type: 'string' },
    },
  });
  const network = values.network.toLowerCase();
  const format = values.format.toLowerCase().replace(/-/g, '_');
  if (!(NETWORKS as readonly string[]).includes(network)) throw badInput(`--network is one of ${NETWORKS.join(', ')}`);
  if (!(FORMATS as readonly string[]).includes(format)) throw badInput(`--format is one of ${FORMATS.join(', ')}`);
  const maxNodes = Number(values['max-nodes']);
  const minWeight = Number(values['min-weight']);
  if (!Number.isInteger(maxNodes) || maxNodes < 2) throw badInput('--max-nodes must be a whole number of at least 2');
  await withApp(async (app) => {
    await ensureDatabase(app);
    await checkCollections(app, values.collection);
    const built = await app.science.network(
      values.collection?.length ? { collections: values.collection } : null,
      network.toUpperCase() as 'COUPLING' | 'COCITATION' | 'COAUTHORSHIP' | 'CITATION',
      { maxNodes, minWeight },
    );
    const content = exportNetwork(built, format.toUpperCase() as NetworkFormat);
    if (values.out) {
      writeFileSync(values.out, content);
      process.stderr.write(`${built.nodes.length} nodes, ${built.edges.length} edges → ${values.out}\n`);
    } else process.stdout.write(content);
  });
}

const MEASURES = [
  'disruption',
  'impact',
  'beauty',
  'prior',
  'derivative',
  'path',
  'lotka',
  'bradford',
  'topic-bursts',
  'reference-bursts',
  'beauties',
  'main-path',
  'clusters',
] as const;

/** The science-of-science measures on the command line, as JSON (the same computations as over GraphQL). */
async function scienceCommand(args: string[]): Promise<void> {
  const [measure, ...rest] = args;
  if (!measure || !(MEASURES as readonly string[]).includes(measure)) {
    throw badInput(`usage: citegraph science ${MEASURES.join('|')} [ID...] [--collection C]... [--from Y --to Y]`);
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      collection: { type: 'string', multiple: true },
      from: { type: 'string' },
      to: { type: 'string' },
      window: { type: 'string' },
      undirected: { type: 'boolean', default: false },
      network: { type: 'string', default: 'coupling' },
      first: { type: 'string', default: '20' },
      'key-routes': { type: 'string' },
    },
  });
  const filter = values.collection?.length ? { collections: values.collection } : null;
  const first = Number(values.first);
  const year = (name: 'from' | 'to', fallback: number) => (values[name] ? Number(values[name]) : fallback);
  const one = () => {
    if (!positionals[0]) throw badInput(`science ${measure} needs a paper id`);
    return positionals[0];
  };
  await withApp(async (app) => {
    await ensureDatabase(app);
    await checkCollections(app, values.collection);
    const s = app.science;
    const bursts = { s: 2, gamma: 1 };
    const result = await (async () => {
      switch (measure as (typeof MEASURES)[number]) {
        case 'disruption':
          return s.disruption(one(), values.window ? Number(values.window) : null);
        case 'impact':
          return (await s.normalisedImpact([one()])).get(one()) ?? null;
        case 'beauty':
          return s.sleepingBeauty(one(), 'INTERNAL_CITATIONS');
        case 'prior':
          return s.priorWorks(positionals, first);
        case 'derivative':
          return s.derivativeWorks(positionals, first);
        case 'path':
          if (positionals.length !== 2) throw badInput('science path needs two paper ids');
          return s.citationPath(positionals[0]!, positionals[1]!, !values.undirected, 6);
        case 'lotka':
          return s.lotka(filter);
        case 'bradford':
          return s.bradford(filter);
        case 'topic-bursts':
          return s.topicBursts(filter, year('from', 1990), year('to', new Date().getFullYear()), {
            topics: first,
            minLevel: 1,
            ...bursts,
          });
        case 'reference-bursts':
          return s.referenceBursts(filter, year('from', 1990), year('to', new Date().getFullYear()), {
            references: first,
            ...bursts,
          });
        case 'beauties':
          return s.sleepingBeauties(filter, 'INTERNAL_CITATIONS', first, 5);
        case 'main-path':
          return values['key-routes'] === undefined
            ? s.mainPath(filter, 2000)
            : s.mainPath(filter, 2000, 'KEY_ROUTE', Number(values['key-routes']));
        case 'clusters':
          return s.clusters(filter, values.network.toUpperCase() === 'COCITATION' ? 'COCITATION' : 'COUPLING', {
            maxNodes: 500,
            minWeight: 1,
            resolution: 1,
          });
      }
    })();
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  });
}

async function statsCommand(): Promise<void> {
  await withApp(async (app) => {
    await ensureDatabase(app);
    const { counts, collections } = await app.catalog.stats();
    const pendingChunks = await app.catalog.pendingChunks();
    const all = { ...counts, pendingChunks, embeddedChunks: (counts.chunks ?? 0) - pendingChunks };
    process.stdout.write(`${JSON.stringify({ counts: all, collections }, null, 2)}\n`);
  });
}

async function serveCommand(args: string[], bootstrap: boolean): Promise<void> {
  const { values } = parseArgs({ args, options: { port: { type: 'string' }, host: { type: 'string' } } });
  const app = createAppContext();
  const { startedEmbedded } = await ensureDatabase(app);
  let stopServer: (() => Promise<void>) | undefined;
  let stopping = false;
  // Each step is guarded and bounded: a failing step must not keep the embedded database (which this command
  // started) running. Installed before the sample ingest, so Ctrl-C during it also stops cleanly.
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    app.logger.info(`${signal}: stopping`);
    const attempt = async (label: string, step: () => Promise<unknown>, seconds = 10) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          step(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${seconds}s`)), seconds * 1000);
          }),
        ]);
      } catch (error) {
        app.logger.warn(`${label}: ${(error as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
    };
    if (stopServer) await attempt('GraphQL server', stopServer);
    await attempt('connections', () => app.close());
    if (startedEmbedded) await attempt('embedded Neo4j', () => stopEmbedded(app.settings), 90);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  if (bootstrap) {
    const { counts } = await app.catalog.stats();
    if ((counts.paperNodes ?? 0) === 0) {
      const files = readdirSync(SAMPLE_DIR)
        .filter((name) => /\.jsonl(\.gz)?$/.test(name))
        .map((name) => path.join(SAMPLE_DIR, name));
      app.logger.info(
        `empty graph: ingesting the bundled sample (${files.map((file) => path.basename(file)).join(', ')})`,
      );
      const summary = await app.ingest.ingestFiles(files, { embed: 'now', collection: SAMPLE_COLLECTION });
      app.logger.info(formatSummary(summary));
    }
  }
  if (stopping) return;
  const port = values.port ? Number(values.port) : app.settings.api.port;
  const { url, stop } = await serveGraphQL(app, port, values.host ?? app.settings.api.host);
  stopServer = stop;
  process.stdout.write(`citegraph GraphQL ready at ${url}\n`);
}

/** `--json` given to a command that has no option of its own for it: its summary is printed as JSON. */
let jsonOutput = false;

/** A command's summary: the sentence for a reader, or with --json the data behind it. */
function say(text: string, data: unknown): void {
  process.stdout.write(jsonOutput ? `${JSON.stringify(data, null, 2)}\n` : `${text}\n`);
}

/**
 * Commands whose summary `say` prints, so that --json is taken off their arguments here (search, ask and fetch read it
 * themselves; stats, science, network and export print JSON or files anyway; elsewhere it is an unknown option).
 */
const SAYS_JSON = new Set(['ingest', 'bulk-load', 'embed', 'collection', 'db', 'schema', 'enrich', 'stats']);

export async function main(argv: string[]): Promise<void> {
  const [command, ...given] = argv;
  jsonOutput = SAYS_JSON.has(command ?? '') && given.includes('--json');
  const rest = SAYS_JSON.has(command ?? '') ? given.filter((arg) => arg !== '--json') : given;
  switch (command) {
    case 'start':
      return serveCommand(rest, true);
    case 'serve':
      return serveCommand(rest, false);
    case 'db':
      return dbCommand(rest[0]);
    case 'schema':
      return withApp(async (app) => {
        await ensureDatabase(app);
        const statements = await applySchema(app.executor);
        say(`schema applied (${statements} statements)`, { statements });
      });
    case 'ingest':
      return ingestCommand(rest);
    case 'bulk-load':
      return bulkLoadCommand(rest);
    case 'embed':
      return withApp(async (app) => {
        await ensureDatabase(app);
        const result = await app.ingest.embedMissing(256, true);
        say(
          `embedded ${result.embedded} chunks (embedding ${(result.embedMs / 1000).toFixed(1)}s, writing ${(result.writeMs / 1000).toFixed(1)}s)`,
          result,
        );
      });
    case 'stats':
      return statsCommand();
    case 'network':
      return networkCommand(rest);
    case 'science':
      return scienceCommand(rest);
    case 'collection':
      return collectionCommand(rest);
    case 'search':
      return searchCommand(rest);
    case 'export':
      return exportCommand(rest);
    case 'fetch':
      return fetchCommand(rest);
    case 'ask':
      return askCommand(rest);
    case 'enrich':
      return withApp(async (app) => {
        await ensureDatabase(app);
        const { values } = parseArgs({
          args: rest,
          options: {
            collection: { type: 'string', multiple: true },
            tau: { type: 'string' },
            'max-terms': { type: 'string' },
            llm: { type: 'boolean', default: false },
          },
        });
        if (values.llm && !app.llm) throw badInput('--llm needs OPENAI_BASE_URL or OPENAI_API_KEY');
        const summary = await enrichPapers(
          app.executor,
          values.collection ?? null,
          {
            tau: values.tau ? Number(values.tau) : 0.1,
            maxTerms: values['max-terms'] ? Number(values['max-terms']) : 10,
            minSupport: 2,
          },
          values.llm ? app.llm : null,
        );
        say(
          `enriched ${summary.enriched} of ${summary.papers} papers with ${summary.terms} terms from the titles of citing papers`,
          summary,
        );
      });
    case 'eval':
      if (rest[0] !== 'retrieval') {
        process.stdout.write(EVAL_USAGE);
        return;
      }
      return withApp(async (app) => {
        await ensureDatabase(app);
        await evalRetrievalCommand(app, rest.slice(1), (text) => process.stdout.write(`${text}\n`));
      });
    case undefined:
    case 'help':
    case '--help':
      process.stdout.write(
        `${USAGE}\nenvironment (variable, meaning, default and accepted values):\n${environmentHelp()}\n`,
      );
      return;
    default:
      process.stderr.write(`unknown command ${command}\n\n${USAGE}`);
      process.exitCode = EXIT.BAD_INPUT;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    const message =
      error instanceof CitegraphError
        ? `${error.code}: ${error.message}`
        : error instanceof Error
          ? error.message
          : String(error);
    process.stderr.write(`citegraph: ${message}\n`);
    process.exit(exitCodeFor(error));
  });
}
