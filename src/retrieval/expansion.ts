import { contentTerms } from '../text';

/** Document frequencies of a corpus (or of some collections of it). */
export interface DocumentFrequencies {
  readonly documents: number;
  df(term: string): number;
}

/** Builds document frequencies from texts (one per document). */
export class InMemoryDocumentFrequencies implements DocumentFrequencies {
  private readonly counts = new Map<string, number>();
  documents = 0;

  add(text: string): void {
    this.documents += 1;
    for (const term of new Set(contentTerms(text))) this.counts.set(term, (this.counts.get(term) ?? 0) + 1);
  }

  df(term: string): number {
    return this.counts.get(term) ?? 0;
  }
}

/**
 * The SIRA-style corpus check: an expansion term is kept only if the corpus knows it (df > 0) and it is not so
 * common that it cannot discriminate (df < τ·|corpus|).
 */
export function validateTerms(candidates: readonly string[], frequencies: DocumentFrequencies, tau: number): string[] {
  const limit = tau * frequencies.documents;
  return candidates.filter((term) => {
    const df = frequencies.df(term);
    return df > 0 && df < limit;
  });
}

/**
 * Pseudo-relevance feedback: terms that are frequent in the top documents and rare in the corpus (tf·idf summed
 * over the feedback documents, earlier documents weighing more), excluding the query's own terms.
 */
export function feedbackTerms(
  query: string,
  feedbackTexts: readonly string[],
  frequencies: DocumentFrequencies,
  maxTerms: number,
): string[] {
  const queryTerms = new Set(contentTerms(query));
  const scores = new Map<string, number>();
  feedbackTexts.forEach((text, rank) => {
    const tf = new Map<string, number>();
    for (const term of contentTerms(text)) tf.set(term, (tf.get(term) ?? 0) + 1);
    const rankWeight = 1 / (1 + rank);
    for (const [term, count] of tf) {
      if (queryTerms.has(term) || /^\d+$/.test(term)) continue;
      const df = frequencies.df(term);
      if (df === 0) continue;
      const idf = Math.log((frequencies.documents + 1) / (df + 0.5));
      scores.set(term, (scores.get(term) ?? 0) + rankWeight * (1 + Math.log(count)) * idf);
    }
  });
  // A term must occur in at least two feedback documents to count as shared vocabulary, unless there is one.
  const support = new Map<string, number>();
  for (const text of feedbackTexts)
    for (const term of new Set(contentTerms(text))) support.set(term, (support.get(term) ?? 0) + 1);
  const minSupport = feedbackTexts.length > 1 ? 2 : 1;
  return [...scores.entries()]
    .filter(([term]) => (support.get(term) ?? 0) >= minSupport)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, maxTerms)
    .map(([term]) => term);
}
