import type { Evidence } from '../../domain';
import type { VerifiedCitation } from '../../generation/verify';
import type { AskDependencies, Gathered, Rewritten } from '../ask-types';
import { EvidencePool } from '../evidence-pool';
import { type AnalyticsPlan, describePlan } from '../plan-schema';
import type { AnswerParts } from '../result';
import { isNonFatal, type Stage } from '../stage';
import { Found, filterOf, type Outcome } from './computed/outcome';
import { runPlan } from './computed/run-plan';
import { sufficiencyOf } from './gather-evidence';

/** After the bibliometric or trend computation: an answer, or null when the question is not one the plan can answer. */
export interface Computed extends Gathered {
  readonly plan: AnalyticsPlan | null;
  readonly computed: AnswerParts | null;
}

/** Computed sentences as a cited answer: each counted paper is cited by its title (the quote is the title). */
async function computedAnswer(
  deps: AskDependencies,
  state: Gathered,
  plan: AnalyticsPlan,
  outcome: Outcome,
  found: Found,
): Promise<Computed> {
  const clarification = found.clarifications.length ? `${found.clarifications.map((c) => c.text).join('. ')}.` : null;
  const unsaid = found.clarifications.filter((c) => !c.said).map((c) => ` Note: ${c.text}.`);
  const generator = plan.operation === 'topic_trend' || plan.operation === 'emerging_topics' ? 'trend' : 'bibliometric';
  if ('refusal' in outcome) {
    return {
      ...state,
      plan,
      computed: {
        answer: '',
        sentences: [],
        bibliography: [],
        dropped: [],
        generator,
        abstained: true,
        reason: `Nothing to compute: ${outcome.refusal}. Plan: ${describePlan(plan)}.`,
        sourceNote: null,
        entities: found.entities,
        clarification,
      },
    };
  }
  await state.pool.addPapers([...new Set(outcome.sentences.flatMap((s) => s.papers))], 'local', 'counted papers');
  const scored: Gathered = { ...state, sufficiency: sufficiencyOf(deps, state) };
  const firstEvidence = new Map<string, Evidence>(scored.pool.bestPerPaper().map((e) => [e.paperId, e]));
  const numbers = new Map<string, number>();
  const sentences = outcome.sentences.map((sentence) => ({
    text: sentence.text,
    citations: sentence.papers
      .map((paperId) => firstEvidence.get(paperId))
      .filter((e): e is Evidence => e !== undefined && !!e.paper.title)
      .map((e): VerifiedCitation => {
        if (!numbers.has(e.id)) numbers.set(e.id, numbers.size + 1);
        const title = e.paper.title!;
        return {
          marker: numbers.get(e.id)!,
          evidenceId: e.id,
          paperId: e.paperId,
          chunkId: e.chunkId,
          quote: title,
          field: 'title',
          start: 0,
          end: title.length,
          section: null,
          sectionKind: null,
          page: null,
          pageEnd: null,
          supportScore: 1,
          method: 'computed',
        };
      }),
  }));
  const markers = (s: (typeof sentences)[number]) =>
    s.citations.length ? ` ${[...new Set(s.citations.map((c) => `[${c.marker}]`))].join('')}` : '';
  const answer =
    sentences.map((s) => `${s.text.replace(/\.$/, '')}${markers(s)}.`).join(' ') +
    (outcome.extra ? ` ${outcome.extra}` : '') +
    unsaid.join('');
  return {
    ...scored,
    plan,
    computed: {
      answer,
      sentences,
      bibliography: [...numbers.entries()].map(([evidenceId, marker]) => ({ marker, evidenceId })),
      dropped: [],
      generator,
      abstained: false,
      reason: null,
      sourceNote: `Figures computed from the citegraph graph (${describePlan(plan)}); the cited papers are among those counted, quoted by title.`,
      figure: outcome.figure ?? null,
      entities: found.entities,
      clarification,
    },
  };
}

/**
 * A window counted back ("in the last decade", "in recent years") as years: it ends at the last year the topic's
 * papers cover (of both topics, for a comparison; the graph's, without a topic), never past the graph's own last year.
 */
async function countBack(deps: AskDependencies, state: Gathered, plan: AnalyticsPlan): Promise<AnalyticsPlan> {
  if (!plan.lastYears || plan.yearFrom !== null || plan.yearTo !== null) return plan;
  const coverage = await deps.analytics.trends.coverageYears();
  if (!coverage) return plan;
  const phrases = [plan.topic, plan.operation.startsWith('compare_topics') ? plan.second : null].filter(
    (phrase): phrase is string => !!phrase,
  );
  const filter = filterOf(state, plan, null, null);
  const years = (await Promise.all(phrases.map((phrase) => deps.analytics.topics.topicSet(phrase, filter))))
    .flatMap((set) => set.papers.map((paper) => paper.year))
    .filter((year): year is number => year !== null && year <= coverage.lastYear);
  const last = years.length > 0 ? Math.max(...years) : coverage.lastYear;
  return { ...plan, yearFrom: last - plan.lastYears + 1, yearTo: last };
}

/**
 * Bibliometric and trend questions answered by a typed plan (src/pipeline/planner.ts) executed with the analytics
 * service: counts over every paper on a topic, people merged by ORCID, papers resolved by DOI or title. When the plan
 * cannot be carried out (no such person, topic or paper) the answer abstains and says why.
 */
export function computedAnswerStage(deps: AskDependencies): Stage<Rewritten & { plan: AnalyticsPlan }, Computed> {
  const start = (state: Rewritten & { plan: AnalyticsPlan }): Gathered & { plan: AnalyticsPlan } => {
    const pool = new EvidencePool(state.question, state.questionVector, deps);
    return { ...state, pool, sufficiency: sufficiencyOf(deps, { ...state, pool }), externalSearches: [] };
  };
  return {
    name: 'computed',
    run: async (state) => {
      const gathered = start(state);
      const found = new Found();
      const plan = await countBack(deps, gathered, state.plan);
      return computedAnswer(deps, gathered, plan, await runPlan(deps, gathered, plan, found), found);
    },
    tolerates: { failure: isNonFatal, fallback: (state) => ({ ...start(state), computed: null }) },
    note: (state) =>
      state.computed
        ? state.computed.abstained
          ? `abstained: ${state.computed.reason ?? ''}`
          : `${state.computed.generator} answer: ${describePlan(state.plan!)}`
        : 'the computation failed; content route',
  };
}
