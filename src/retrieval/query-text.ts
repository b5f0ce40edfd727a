import { badInput } from '../errors';
import { contentTerms } from '../text';

/** Longest query, in terms, sent to Lucene (its clause limit is 1024). */
export const MAX_QUERY_TERMS = 64;

/**
 * Builds a Lucene query from user text: every term is reduced to letters and digits, so operators, fields,
 * wildcards, quotes and backslashes cannot be injected. Expansion terms form a second, down-weighted clause
 * (BM25(q) + w·BM25(q_exp)). Throws BAD_USER_INPUT when nothing searchable is left.
 */
export function buildLuceneQuery(text: string, expansion: readonly string[] = [], expansionWeight = 0.3): string {
  const unique = [...new Set(contentTerms(text))].slice(0, MAX_QUERY_TERMS);
  if (unique.length === 0) {
    throw badInput(
      text.trim().length === 0 ? 'the query is empty' : `the query has no searchable terms: "${text.slice(0, 80)}"`,
    );
  }
  const main = unique.join(' ');
  const extra = [...new Set(expansion.flatMap((term) => contentTerms(term)))]
    .filter((term) => !unique.includes(term))
    .slice(0, 32);
  if (extra.length === 0 || expansionWeight <= 0) return main;
  return `(${main}) (${extra.join(' ')})^${Number(expansionWeight.toFixed(3))}`;
}
