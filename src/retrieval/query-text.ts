import { badInput } from '../errors';

/** English stopwords (Lucene's English analyzer set plus common question words). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to ' +
    'was will with what which who whom whose why how when where does do did done has have had having been being were ' +
    "can could should would may might must shall than also its it's our we you your he she his her them those from " +
    'about between within without over under via per vs versus any all some each other more most less least very ' +
    'i me my mine us so too just only own same both few nor up down out off again further once here s t'
  ).split(/\s+/),
);

/** Longest query, in terms, sent to Lucene (its clause limit is 1024). */
export const MAX_QUERY_TERMS = 64;

/** Lower-case word terms of a text: letters and digits only, so no Lucene syntax can survive. */
export function terms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((term) => term.length < 64);
}

/** Content terms: terms without stopwords and lone characters (numbers kept: "5", "2019" matter). */
export function contentTerms(text: string): string[] {
  return terms(text).filter((term) => !STOPWORDS.has(term) && (term.length > 1 || /\d/.test(term)));
}

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
