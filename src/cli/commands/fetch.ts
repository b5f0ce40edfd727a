import { parseArgs } from 'node:util';
import { badInput } from '../../errors';
import { labelStubs, MAX_STUB_LABELS } from '../../external/stub-labels';
import { formatSummary } from '../../ingest/ingest-types';
import { ensureDatabase } from '../database';
import { EXIT } from '../exit-codes';
import { checkCollections, withApp } from '../shared';

/** `citegraph fetch`: works from Crossref, OpenAlex and Semantic Scholar, merged, and optionally ingested. */
export async function fetchCommand(args: string[]): Promise<void> {
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
