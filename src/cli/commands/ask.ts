import { parseArgs } from 'node:util';
import { ensureDatabase } from '../database';
import type { AskResult } from '../../pipeline/ask-types';
import { checkCollections, withApp } from '../shared';

/** `citegraph ask`: a cited answer or an abstention, as text or JSON. */
export async function askCommand(args: string[]): Promise<void> {
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
    process.stdout.write(askText(result));
  });
}

/** The text `citegraph ask` prints for a result: the answer or the abstention, quotes, evidence, decision, cost. */
export function askText(result: AskResult): string {
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
  // As the page does: why the decision is not the band's ("abstained although the evidence scored STRONG: …").
  if (result.sufficiency.overruled) out.push(`decision: ${result.sufficiency.overruled}`);
  if (result.gaps.length) out.push(`gaps: ${result.gaps.join('; ')}`);
  if (result.contradictions.length)
    out.push(`possible contradictions: ${result.contradictions.map((c) => c.note).join('; ')}`);
  if (result.externalSearches.length)
    out.push(
      `external: ${result.externalSearches.map((s) => `${s.portfolio}@${s.source} ${s.error ? 'failed' : `${s.kept}/${s.found}`}`).join(', ')}`,
    );
  out.push(`time: ${result.trace.map((t) => `${t.stage} ${t.ms.toFixed(0)}ms`).join(', ')}`);
  out.push(
    `cost: ${result.cost.llmCalls} LLM calls, ${result.cost.promptTokens}+${result.cost.completionTokens} tokens, $${result.cost.estimatedUsd}; API calls ${JSON.stringify(result.cost.apiCalls)}`,
  );
  return `${out.join('\n')}\n`;
}
