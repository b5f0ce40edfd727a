import type { ProviderName } from './provider-base';

/**
 * Search portfolios for the scholarly APIs: one subject asked four ways, each provider asked in the form it
 * understands, so that what one phrasing misses another finds.
 *
 * - `primary`: the subject's concepts, all required, each by any of its names (synonyms, spellings, acronyms).
 * - `wildcard`: the concepts' specific words truncated to their stems (`haemop*`), noise words left out — where a
 *   provider truncates; OpenAlex and Crossref match whole (stemmed) words only, so it is not sent to them.
 * - `field`: the primary query restricted to titles and abstracts (OpenAlex's title_and_abstract filter, Crossref's
 *   bibliographic field); Semantic Scholar's search has no field restriction, so it is not sent there.
 * - `general`: the question in plain words (the pipeline's rewrite of it), to each provider's relevance-ranked search.
 */
export type PortfolioName = 'primary' | 'wildcard' | 'field' | 'general';

export const PORTFOLIO_NAMES: readonly PortfolioName[] = ['primary', 'wildcard', 'field', 'general'];

export interface Portfolio {
  name: PortfolioName;
  /** Concepts, all required; each a list of alternative names (a name may hold several words). */
  groups: string[][];
  /** The groups' specific words truncated (the wildcard portfolio), noise words left out, without the `*`. */
  stems: string[][];
  /** The question in plain words (the general portfolio). */
  text: string;
}

/** How a provider is asked: which of its searches, with what text. */
export interface ProviderQuery {
  /** `search`: relevance-ranked full search; `title_abstract`: OpenAlex's field filter; `bibliographic`: Crossref's
   * field; `bulk`: Semantic Scholar's boolean bulk search (sorted by citations: it ranks nothing itself). */
  kind: 'search' | 'title_abstract' | 'bibliographic' | 'bulk';
  text: string;
}

/**
 * OpenAlex's and Semantic Scholar's boolean forms of the concept groups: every group required, any name of a group,
 * every word of a name (not as a phrase: "emicizumab prophylaxis" is also written "prophylaxis with emicizumab").
 */
function booleanText(groups: readonly string[][], or: string, and: string): string {
  const name = (words: string) => words.split(/\s+/).join(and);
  const grouped = (words: string, alone: boolean) => (alone || !/\s/.test(words) ? name(words) : `(${name(words)})`);
  return groups
    .map((names) =>
      names.length > 1 ? `(${names.map((n) => grouped(n, false)).join(or)})` : grouped(names[0]!, groups.length === 1),
    )
    .join(and);
}

/** The words of every name of every group, once each: Crossref ranks by terms and has no boolean syntax. */
function bagOfWords(groups: readonly string[][]): string {
  return [...new Set(groups.flatMap((names) => names.join(' ').split(/\s+/)))].join(' ');
}

/** The query a provider is sent for a portfolio, or null when the provider cannot search that way. */
export function renderPortfolio(provider: ProviderName, portfolio: Portfolio): ProviderQuery | null {
  const { name, groups, stems } = portfolio;
  if (name === 'general') return portfolio.text.trim() ? { kind: 'search', text: portfolio.text.trim() } : null;
  if (name === 'wildcard') {
    if (provider !== 's2' || stems.length === 0) return null;
    const starred = stems.map((names) => names.map((name) => name.replace(/(\S+)/g, '$1*')));
    return { kind: 'bulk', text: booleanText(starred, ' | ', ' + ') };
  }
  if (groups.length === 0) return null;
  switch (provider) {
    case 'openalex':
      return { kind: name === 'field' ? 'title_abstract' : 'search', text: booleanText(groups, ' OR ', ' AND ') };
    case 'crossref':
      return { kind: name === 'field' ? 'bibliographic' : 'search', text: bagOfWords(groups) };
    case 's2':
      return name === 'field' ? null : { kind: 'bulk', text: booleanText(groups, ' | ', ' + ') };
  }
}

/** A provider query as the trace shows it: `openalex title_abstract: (a OR b) AND c`. */
export function describeQuery(query: ProviderQuery): string {
  return query.kind === 'search' ? query.text : `${query.kind}: ${query.text}`;
}
