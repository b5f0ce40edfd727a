import { parseArgs } from 'node:util';
import { documentFormat } from '../../documents/read-document';
import { loadSettings } from '../../config/settings';
import type { EmbeddingSpace } from '../../embedding/embedding-space';
import { EMBEDDING_MODELS } from '../../embedding/models';
import { badInput } from '../../errors';
import { formatSummary, type IngestFormat } from '../../ingest/ingest-types';
import { bulkLoad } from '../bulk-load';
import { ensureDatabase } from '../database';
import { EXIT } from '../exit-codes';
import { filesOf, say, withApp } from '../shared';

/** `citegraph ingest`, `bulk-load` and `embed`: records and documents into the graph, and their embeddings. */

export async function ingestCommand(args: string[]): Promise<void> {
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
  const files = filesOf(
    positionals,
    (name) => /\.(jsonl|json|ndjson)(\.gz)?$/.test(name) || documentFormat(name) !== null,
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

export async function bulkLoadCommand(args: string[]): Promise<void> {
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
  const files = filesOf(positionals, (name) => /\.(jsonl|json|ndjson)(\.gz)?$/.test(name));
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

/**
 * `citegraph embed`: the chunks ingested with --defer-embedding, and the companion model's vectors of every chunk
 * without one (CITEGRAPH_COMPANION_MODEL). `--model NAME` makes NAME the graph's embedding model
 * (src/embedding/models.ts): every chunk vector of the other model is removed, then every chunk embedded anew;
 * `--companion NAME` does the same for the companion's vectors. Resumable — run it again after an interruption. Serve
 * with CITEGRAPH_EMBEDDING_MODEL=NAME (CITEGRAPH_COMPANION_MODEL=NAME) afterwards.
 */
export async function embedCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { model: { type: 'string' }, companion: { type: 'string' } } });
  const { model, companion } = values;
  for (const [option, name] of [
    ['--model', model],
    ['--companion', companion],
  ] as const) {
    if (name !== undefined && !Object.hasOwn(EMBEDDING_MODELS, name))
      throw badInput(`${option} is one of ${Object.keys(EMBEDDING_MODELS).join(', ')}`);
  }
  const settings = loadSettings({
    ...process.env,
    ...(model ? { CITEGRAPH_EMBEDDING_MODEL: model } : {}),
    ...(companion ? { CITEGRAPH_COMPANION_MODEL: companion } : {}),
  });
  await withApp(async (app) => {
    await ensureDatabase(app);
    const run = async (
      space: EmbeddingSpace,
      change: boolean,
      embed: () => Promise<{ embedded: number; embedMs: number; writeMs: number }>,
      whose: string,
    ) => {
      const before = await space.recorded();
      const removed = change ? await space.switchTo() : 0;
      const result = await embed();
      const line = `${removed > 0 ? `removed ${removed} ${whose}chunk vectors of ${before}; ` : ''}embedded ${result.embedded} chunks with ${whose ? `the companion model ` : ''}${space.model} (embedding ${(result.embedMs / 1000).toFixed(1)}s, writing ${(result.writeMs / 1000).toFixed(1)}s)`;
      return { line, report: { ...result, model: space.model, removed } };
    };
    const own = await run(app.embeddingSpace, Boolean(model), () => app.ingest.embedMissing(256, true), '');
    const second = app.companion
      ? await run(
          app.companion.space,
          Boolean(companion),
          () => app.ingest.embedCompanionMissing(256, true),
          'companion ',
        )
      : null;
    say([own.line, ...(second ? [second.line] : [])].join('\n'), {
      ...own.report,
      ...(second ? { companion: second.report } : {}),
    });
  }, settings);
}
