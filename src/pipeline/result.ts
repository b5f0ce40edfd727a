import { settingsHash } from '../config/settings';
import type { VerifiedSentence } from '../generation/verify';
import type { AnswerFigure, AnswerGenerator, AskDependencies, AskResult, Gathered, ResolvedEntity } from './ask-types';
import type { AnalyticsPlan } from './plan-schema';

/** How many evidence passages an answer lists. */
const EVIDENCE_LISTED = 30;

/** What an answer says, before the request's accounting is added. */
export interface AnswerParts {
  answer: string;
  sentences: VerifiedSentence[];
  bibliography: Array<{ marker: number; evidenceId: string }>;
  dropped: Array<{ text: string; reason: string }>;
  generator: AnswerGenerator;
  abstained: boolean;
  reason: string | null;
  sourceNote: string | null;
  figure?: AnswerFigure | null;
  entities?: ResolvedEntity[];
  clarification?: string | null;
  gaps?: string[];
  contradictions?: AskResult['contradictions'];
}

/** Why an answer abstained: the score, what was searched (locally and outside), and the best passages found. */
export function abstentionReason(state: Gathered): string {
  const best = state.pool.bestPerPaper().slice(0, 3);
  const searched = state.subQueries.map((s) => `"${s.text}"`).join(', ');
  const external = state.externalSearches.length
    ? ` External searches: ${state.externalSearches.map((s) => `${s.portfolio} at ${s.source} (${s.error ? 'failed' : `${s.kept} of ${s.found} kept`})`).join(', ')}.`
    : '';
  const passages = best.length
    ? best.map((e) => `"${e.paper.title ?? e.paperId}" (score ${e.score})`).join('; ')
    : 'none';
  return `Insufficient evidence (score ${state.sufficiency.score}, ${state.sufficiency.band}). Searched the graph for ${searched}.${external} Best passages found: ${passages}.`;
}

/**
 * Why the decision is not the band's, so a page never shows "no answer" beside a STRONG band without the reason: an
 * abstention over MODERATE or STRONG evidence gives its first reason; a computed answer says it rests on the graph's
 * counts, not on passage sufficiency. Null when band and decision agree.
 */
function overruled(state: Gathered, parts: AnswerParts): string | null {
  const { band } = state.sufficiency;
  if (parts.abstained && band !== 'WEAK') {
    const first = (parts.reason ?? '').split(/(?<=[.!?])\s+/)[0]?.replace(/[.!?]$/, '') ?? '';
    return `abstained although the evidence scored ${band}: ${first || 'no reason given'}`;
  }
  if (!parts.abstained && (parts.generator === 'bibliometric' || parts.generator === 'trend') && band === 'WEAK')
    return 'answered by computing over the graph: the figures do not rest on passage sufficiency';
  if (!parts.abstained && band === 'WEAK') return 'answered although the evidence scored WEAK';
  return null;
}

/** The answer as the API gives it: citations with their papers, the evidence, the trace and the cost. */
export function buildResult(
  deps: AskDependencies,
  state: Gathered,
  parts: AnswerParts,
  plan: AnalyticsPlan | null = null,
): AskResult {
  const paperOf = (evidenceId: string) => state.pool.get(evidenceId)!.paper;
  const { meter } = state.ctx;
  const g = deps.settings.generation;
  return {
    question: state.question,
    answer: parts.abstained ? `Insufficient evidence to answer. ${parts.reason ?? ''}`.trim() : parts.answer,
    sentences: parts.sentences.map((s) => ({
      ...s,
      citations: s.citations.map((c) => ({ ...c, paper: paperOf(c.evidenceId) })),
    })),
    bibliography: parts.bibliography.map((b) => {
      const paper = paperOf(b.evidenceId);
      return {
        marker: b.marker,
        paper,
        doiUrl: paper.doi ? `https://doi.org/${paper.doi}` : null,
        evidenceId: b.evidenceId,
      };
    }),
    route: state.decision.route,
    routeReasons: state.decision.reasons,
    plan,
    rewrite: state.rewrite,
    subQueries: state.subQueries,
    sufficiency: { ...state.sufficiency, overruled: overruled(state, parts) },
    abstained: parts.abstained,
    abstentionReason: parts.reason,
    evidence: state.pool.ranked().slice(0, EVIDENCE_LISTED),
    externalSearches: state.externalSearches,
    gaps: parts.gaps ?? [],
    contradictions: parts.contradictions ?? [],
    droppedSentences: parts.dropped,
    generator: parts.generator,
    sourceNote: parts.sourceNote,
    figure: parts.abstained ? null : (parts.figure ?? null),
    entities: parts.entities ?? [],
    clarification: parts.clarification ?? null,
    trace: [...state.trace, { stage: 'total', ms: Date.now() - state.started, note: '' }],
    cost: {
      llmCalls: meter.calls,
      promptTokens: meter.promptTokens,
      completionTokens: meter.completionTokens,
      apiCalls: state.ctx.ledger.requests(),
      estimatedUsd: Number(
        (
          (meter.promptTokens / 1000) * g.promptPricePer1k +
          (meter.completionTokens / 1000) * g.completionPricePer1k
        ).toFixed(6),
      ),
    },
    settingsHash: settingsHash(deps.settings),
  };
}
