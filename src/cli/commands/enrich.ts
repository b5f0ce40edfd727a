import { parseArgs } from 'node:util';
import { badInput } from '../../errors';
import { enrichPapers } from '../../retrieval/enrichment';
import { ensureDatabase } from '../database';
import { say, withApp } from '../shared';

/** `citegraph enrich`: index vocabulary from the titles of citing papers (and the LLM with --llm). */
export async function enrichCommand(args: string[]): Promise<void> {
  await withApp(async (app) => {
    await ensureDatabase(app);
    const { values } = parseArgs({
      args,
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
}
