import type { EvidenceSettings } from '../config/settings';
import type { Evidence } from '../domain';
import { contentTerms } from '../text';
import type { Route } from './router';

/**
 * Evidence score 0–100: semantic similarity of passage and question (cosine 0.15 → 0, 0.60 → 100), blended with the
 * share of the question's content terms the passage contains. Embeddings find paraphrases; terms keep specifics.
 */
export function scoreEvidence(similarity: number, passage: string, question: string): number {
  const semantic = Math.max(0, Math.min(1, (similarity - 0.15) / 0.45));
  const wanted = new Set(contentTerms(question));
  const have = new Set(contentTerms(passage));
  const coverage = wanted.size === 0 ? 0 : [...wanted].filter((term) => have.has(term)).length / wanted.size;
  return Math.round(100 * (0.75 * semantic + 0.25 * coverage));
}

export type Band = 'STRONG' | 'MODERATE' | 'WEAK';

export interface SufficiencyDimension {
  name:
    | 'retrieval_confidence'
    | 'answer_specificity'
    | 'source_diversity'
    | 'metadata_completeness'
    | 'recency'
    | 'concept_connection';
  score: number;
  weight: number;
  reason: string;
}

export interface Sufficiency {
  score: number;
  band: Band;
  dimensions: SufficiencyDimension[];
  /** Content terms of the question that the best passages lack: what a reformulation should look for. */
  missingTerms: string[];
  /**
   * When the decision is not the band's: evidence scored MODERATE or STRONG but the answer abstained for another reason
   * (unconnected concepts, no verifiable sentence, nothing to compute, no news searched), or a computed answer that
   * does not rest on passages; null when band and decision agree. Set on the result (src/pipeline/result.ts).
   */
  overruled?: string | null;
}

export function band(score: number, settings: Pick<EvidenceSettings, 'strongBand' | 'moderateBand'>): Band {
  if (score >= settings.strongBand) return 'STRONG';
  if (score >= settings.moderateBand) return 'MODERATE';
  return 'WEAK';
}

const WEIGHTS: Record<Route, [number, number, number, number, number]> = {
  content: [0.4, 0.25, 0.15, 0.1, 0.1],
  bibliometric: [0.35, 0.25, 0.15, 0.15, 0.1],
  trend: [0.35, 0.25, 0.15, 0.1, 0.15],
  current_world: [0.3, 0.2, 0.1, 0.1, 0.3],
};

/**
 * Scores whether the evidence can carry an answer, over five dimensions, each 0–100 with its reason. The weights
 * depend on the route: recency matters most for questions about the current world.
 */
export function scoreSufficiency(
  question: string,
  evidence: readonly Evidence[],
  route: Route,
  settings: Pick<EvidenceSettings, 'strongBand' | 'moderateBand' | 'minEvidenceScore'>,
  currentYear = new Date().getFullYear(),
  ownDocuments: number | null = null,
): Sufficiency {
  const ranked = [...evidence].sort((a, b) => b.score - a.score);
  const top = ranked.slice(0, 3);
  // Over the caller's own documents alone, bibliographic metadata and publication years say nothing about whether the
  // passages answer: their weights go to the other dimensions, and diversity is measured against the set's size.
  const own = ownDocuments !== null;
  const base = WEIGHTS[route];
  const kept = own ? base[0] + base[1] + base[2] : 1;
  const [wConf, wSpec, wDiv, wMeta, wRec] = own ? [base[0] / kept, base[1] / kept, base[2] / kept, 0, 0] : base;
  const confidence = top.length === 0 ? 0 : Math.round(top.reduce((sum, e) => sum + e.score, 0) / top.length);

  const wanted = [...new Set(contentTerms(question))];
  const covered = new Set(ranked.slice(0, 5).flatMap((e) => contentTerms(`${e.paper.title ?? ''} ${e.text}`)));
  const found = wanted.filter((term) => covered.has(term));
  const specificity = wanted.length === 0 ? 0 : Math.round((100 * found.length) / wanted.length);

  const usable = ranked.filter((e) => e.score >= settings.minEvidenceScore);
  const papers = new Set(usable.map((e) => e.paperId));
  // Four distinct papers make full diversity; a set of fewer documents has full diversity when all of them answer.
  const enough = own ? Math.max(1, Math.min(4, ownDocuments)) : 4;
  const diversity = Math.min(100, Math.round((100 * papers.size) / enough));

  const metaPapers = [...new Map(ranked.slice(0, 5).map((e) => [e.paperId, e.paper])).values()];
  const completeness =
    metaPapers.length === 0
      ? 0
      : Math.round(
          (100 *
            metaPapers.reduce(
              (sum, p) =>
                sum +
                [p.title, p.year, p.doi, p.venue, p.authors].filter((x) => x !== null && x !== undefined && x !== 0)
                  .length /
                  5,
              0,
            )) /
            metaPapers.length,
        );

  const years = usable
    .map((e) => e.paper.year)
    .filter((y): y is number => typeof y === 'number')
    .sort((a, b) => a - b);
  let recency = 50;
  let recencyReason = 'no publication years: neutral';
  if (years.length > 0) {
    const median = years[Math.floor(years.length / 2)]!;
    const age = currentYear - median;
    recency = Math.round(100 * Math.max(0, Math.min(1, 1 - (age - 2) / 20)));
    recencyReason = `median year ${median} (${age} years old)`;
  }

  const dimensions: SufficiencyDimension[] = [
    {
      name: 'retrieval_confidence',
      score: confidence,
      weight: wConf,
      reason: top.length ? `top passages score ${top.map((e) => e.score).join(', ')}` : 'no passage found',
    },
    {
      name: 'answer_specificity',
      score: specificity,
      weight: wSpec,
      reason: `${found.length} of ${wanted.length} question terms in the best passages${
        wanted.length - found.length > 0
          ? ` (missing: ${wanted
              .filter((t) => !covered.has(t))
              .slice(0, 6)
              .join(', ')})`
          : ''
      }`,
    },
    {
      name: 'source_diversity',
      score: diversity,
      weight: wDiv,
      reason: `${papers.size} distinct ${own ? 'documents' : 'papers'} above the evidence floor${own ? ` (of ${ownDocuments} in the set, ${enough} needed for full diversity)` : ''}`,
    },
    {
      name: 'metadata_completeness',
      score: completeness,
      weight: wMeta,
      reason: own
        ? 'your own documents: bibliographic metadata is not weighed'
        : `title, year, DOI, venue and authors of the top papers`,
    },
    {
      name: 'recency',
      score: recency,
      weight: wRec,
      reason: own ? `your own documents: ${recencyReason}, not weighed` : recencyReason,
    },
  ];
  const score = Math.round(dimensions.reduce((sum, d) => sum + d.score * d.weight, 0));
  return { score, band: band(score, settings), dimensions, missingTerms: wanted.filter((term) => !covered.has(term)) };
}

/** Share of the original query's content terms that a reformulation keeps. */
export function termRetention(original: string, reformulated: string): number {
  const before = new Set(contentTerms(original));
  if (before.size === 0) return 1;
  const after = new Set(contentTerms(reformulated));
  return [...before].filter((term) => after.has(term)).length / before.size;
}

/** The drift guard: a reformulation must keep at least `minShare` of the original content terms. */
export function passesDriftGuard(original: string, reformulated: string, minShare: number): boolean {
  return termRetention(original, reformulated) >= minShare;
}

/**
 * Orders evidence for the context so that the strongest sit at both ends (models lose the middle of long contexts):
 * ranks 1, 3, 5, … then … 6, 4, 2. Fills the token budget strongest first — after the best passage of each paper in
 * `firstPapers` (the papers that connect the question's concepts, which the answer must be able to quote however
 * their passages rank).
 */
export function buildContext(
  evidence: readonly Evidence[],
  budgetTokens: number,
  countTokens: (text: string) => number,
  minScore: number,
  firstPapers: ReadonlySet<string> = new Set(),
): { ordered: Evidence[]; tokens: number; dropped: number } {
  const ranked = [...evidence]
    .filter((e) => e.source !== 'local' || e.score >= minScore)
    .sort((a, b) => b.score - a.score);
  const first = new Map<string, Evidence>();
  for (const item of ranked)
    if (firstPapers.has(item.paperId) && !first.has(item.paperId)) first.set(item.paperId, item);
  const chosen: Evidence[] = [];
  let tokens = 0;
  for (const item of [...first.values(), ...ranked.filter((e) => first.get(e.paperId) !== e)]) {
    const cost = countTokens(item.text) + 8;
    if (tokens + cost > budgetTokens) continue;
    chosen.push(item);
    tokens += cost;
  }
  chosen.sort((a, b) => b.score - a.score);
  const front = chosen.filter((_, index) => index % 2 === 0);
  const back = chosen.filter((_, index) => index % 2 === 1).reverse();
  return { ordered: [...front, ...back], tokens, dropped: evidence.length - chosen.length };
}

/** Null-finding phrasing: a passage that reports no effect, as opposed to one that merely contains "not". */
const NEGATION =
  /\b(no (?:significant |statistically significant )?(?:effect|association|difference|increase|decrease|reduction|benefit|evidence|change|relationship)|not (?:significantly )?(?:associated|related|linked|different|increased|reduced|affected|changed)|did not (?:significantly )?(?:increase|reduce|decrease|affect|change|differ|improve|alter|prevent)|failed to (?:show|find|demonstrate|reduce|prevent)|non-?significant|was unchanged|were unchanged)\b/i;

/**
 * Possible contradictions: two passages from different papers that are about the same thing (similar text) where one
 * states an effect and the other negates it. A flag for the reader, not a verdict.
 */
export function findContradictions(
  evidence: readonly Evidence[],
  similarity: (a: Evidence, b: Evidence) => number,
  threshold = 0.7,
): Array<{ a: string; b: string; similarity: number; note: string }> {
  // One flag per pair of papers, the closest pair of their passages: two passages of the same two papers say the same
  // thing twice.
  const out = new Map<string, { a: string; b: string; similarity: number; note: string }>();
  const top = [...evidence].sort((x, y) => y.score - x.score).slice(0, 8);
  for (let i = 0; i < top.length; i += 1) {
    for (let j = i + 1; j < top.length; j += 1) {
      const a = top[i]!;
      const b = top[j]!;
      if (a.paperId === b.paperId) continue;
      const negA = NEGATION.test(a.text);
      const negB = NEGATION.test(b.text);
      if (negA === negB) continue;
      const sim = similarity(a, b);
      const pair = [a.paperId, b.paperId].sort().join('|');
      if (sim >= threshold && sim > (out.get(pair)?.similarity ?? -Infinity)) {
        out.set(pair, {
          a: a.id,
          b: b.id,
          similarity: sim,
          note: `${negA ? a.paperId : b.paperId} reports no effect where ${negA ? b.paperId : a.paperId} reports one`,
        });
      }
    }
  }
  return [...out.values()].sort((x, y) => y.similarity - x.similarity).slice(0, 3);
}
