import { parseArgs } from 'node:util';
import { MAX_EXPORT } from '../../catalog/paper-export';
import type { SearchOptions } from '../../retrieval/search-types';
import { ensureDatabase } from '../database';
import { bibliographyFormat, checkCollections, withApp, writeExport } from '../shared';

/** `citegraph search`: ranked papers with their passages and the trace, as text, JSON or a bibliography file. */
export async function searchCommand(args: string[]): Promise<void> {
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
