import type { GraphExecutor } from '../graph/executor';
import { paperFilterParams, queries } from '../graph/query-registry';
import { readDocumentFrequencies } from './corpus-statistics';
import { type DocumentFrequencies, validateTerms } from './expansion';
import { contentTerms } from '../text';
import { parseJsonObject } from '../generation/llm';
import { enrichmentPrompt } from '../generation/prompts';
import type { LlmClient } from '../request-context';

/**
 * Corpus-side enrichment: words that others use for a paper but its own text lacks. Offline, they come from the
 * titles of the papers that cite it: a term counts when at least `minSupport` citing titles use it, the paper's own
 * title and abstract do not, and the corpus check (0 < df < τ·|corpus|) passes.
 */
export function enrichmentTerms(
  ownText: string,
  citingTitles: readonly string[],
  frequencies: DocumentFrequencies,
  options: { tau: number; maxTerms: number; minSupport: number },
): string[] {
  const own = new Set(contentTerms(ownText));
  const support = new Map<string, number>();
  for (const title of citingTitles) {
    for (const term of new Set(contentTerms(title))) {
      if (own.has(term) || /^\d+$/.test(term)) continue;
      support.set(term, (support.get(term) ?? 0) + 1);
    }
  }
  const candidates = [...support.entries()]
    .filter(([, count]) => count >= options.minSupport)
    .sort((a, b) => b[1] - a[1] || frequencies.df(a[0]) - frequencies.df(b[0]) || (a[0] < b[0] ? -1 : 1))
    .map(([term]) => term);
  return validateTerms(candidates, frequencies, options.tau).slice(0, options.maxTerms);
}

/**
 * With an LLM: words users would search with for this paper that its text lacks, kept only if the corpus check
 * passes. A failing call leaves the paper with its citing-title vocabulary.
 */
async function llmVocabulary(
  llm: LlmClient,
  text: string,
  frequencies: DocumentFrequencies,
  options: { tau: number; maxTerms: number },
): Promise<string[]> {
  try {
    const result = await llm.chat(enrichmentPrompt(text, options.maxTerms), { json: true });
    const proposed = parseJsonObject(result.text).terms;
    const own = new Set(contentTerms(text));
    const terms = Array.isArray(proposed)
      ? proposed
          .map(String)
          .flatMap((term) => contentTerms(term))
          .filter((term) => !own.has(term))
      : [];
    return validateTerms([...new Set(terms)], frequencies, options.tau);
  } catch {
    return [];
  }
}

export interface EnrichmentSummary {
  papers: number;
  enriched: number;
  terms: number;
}

/** Computes and stores `Paper.enrichment` (indexed in `paper_text`) for the papers of some collections, or all. */
export async function enrichPapers(
  executor: GraphExecutor,
  collections: string[] | null,
  options: { tau: number; maxTerms: number; minSupport: number } = { tau: 0.1, maxTerms: 10, minSupport: 2 },
  llm: LlmClient | null = null,
): Promise<EnrichmentSummary> {
  const q = queries();
  const frequencies = await readDocumentFrequencies(executor, collections);
  const summary: EnrichmentSummary = { papers: 0, enriched: 0, terms: 0 };
  const filter = paperFilterParams({ collections });
  let after = '';
  for (;;) {
    const rows = await executor.read<{ id: string; text: string; citingTitles: string[] }>(
      q.citingTitles({ ...filter, after, limit: 2000 }),
    );
    const updates = [];
    for (const row of rows) {
      let terms = enrichmentTerms(row.text, row.citingTitles, frequencies, options);
      if (llm)
        terms = [...new Set([...terms, ...(await llmVocabulary(llm, row.text, frequencies, options))])].slice(
          0,
          options.maxTerms,
        );
      summary.papers += 1;
      if (terms.length > 0) summary.enriched += 1;
      summary.terms += terms.length;
      updates.push({ id: row.id, terms: terms.length > 0 ? terms.join(' ') : null });
    }
    if (updates.length > 0) await executor.write(q.setEnrichment({ rows: updates }));
    if (rows.length < 2000) break;
    after = rows[rows.length - 1]!.id;
  }
  return summary;
}
