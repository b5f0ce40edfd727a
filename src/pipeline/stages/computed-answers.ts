import type { Evidence } from '../../domain';
import { contentTerms } from '../../text';
import type { AskDependencies, Gathered, Rewritten } from '../ask-types';
import { scoreSufficiency } from '../evidence';
import { EvidencePool } from '../evidence-pool';
import type { AnswerParts } from '../result';
import { isNonFatal, type Stage } from '../stage';
import { sufficiencyOf } from './gather-evidence';

/** A sentence of figures and the papers it counted (which it cites). */
interface ComputedSentence {
  text: string;
  papers: string[];
}

/** After the bibliometric or trend computation: an answer, or null when nothing countable matched the question. */
export interface Computed extends Gathered {
  readonly computed: AnswerParts | null;
}

/** Bibliometric and trend framing ("who", "most cited papers", "over time"): what is counted, not what about. */
const COUNTING =
  /\b(?:who|whom|which|authors?|researchers?|groups?|papers?|articles?|publications?|studies|works?|most|top|cited|citations?|count|number|how many|prolific|wrote|written|published|research|trends?|over time|per year|by year|changed?|grown?|growth|since|years?|decades?|history|\d{4})\b/gi;

/** The topic of a bibliometric or trend question: its content terms without the counting framing. */
export function topicOf(question: string): string {
  return contentTerms(question.replace(COUNTING, ' ')).join(' ');
}

/** Papers the graph holds on the question's topic (a search for the topic phrase). */
async function papersOnTopic(deps: AskDependencies, state: Gathered, first = 50): Promise<string[]> {
  const response = await deps.search.search(
    state.ctx,
    topicOf(state.question) || state.rewrite || state.question,
    first,
    { collections: state.options.collections ?? null },
    { passages: 0 },
  );
  return response.results.map((r) => r.paper.id);
}

/**
 * Whether papers a text query retrieved are about the question at all: counting them only makes sense if their best
 * passages are evidence (not WEAK). Otherwise the content path runs, and abstains if it must.
 */
async function relevant(deps: AskDependencies, state: Gathered, paperIds: string[]): Promise<boolean> {
  await state.pool.addPapers(paperIds.slice(0, 5), 'local', state.rewrite);
  const topic = topicOf(state.question) || state.rewrite;
  return scoreSufficiency(topic, state.pool.values(), state.decision.route, deps.settings.evidence).band !== 'WEAK';
}

async function bibliometricSentences(deps: AskDependencies, state: Gathered): Promise<ComputedSentence[] | null> {
  const sentences: ComputedSentence[] = [];
  for (const person of state.decision.people.slice(0, 2)) {
    const [match] = await deps.analytics.authorsByName(person, 1);
    if (!match) continue;
    const metrics = await deps.analytics.authorMetrics(match.author.id);
    const works = await deps.analytics.authorWorks(match.author.id, null, { skip: 0, limit: 3 });
    const coauthors = await deps.analytics.authorCoauthors(match.author.id, null, { skip: 0, limit: 3 });
    sentences.push({
      text: `${match.author.name} has ${metrics.works} papers in the graph (${metrics.firstYear ?? '?'}–${metrics.lastYear ?? '?'}), with an h-index of ${metrics.hIndexInternal} from citations inside the graph and ${metrics.hIndexGlobal} from global citation counts (${metrics.citationsGlobal} citations in all).`,
      papers: works.items.map((p) => p.id),
    });
    if (coauthors.items.length > 0) {
      sentences.push({
        text: `Frequent co-authors: ${coauthors.items.map((c) => `${c.author.name ?? c.author.id} (${c.joint} joint papers)`).join(', ')}.`,
        papers: works.items.slice(0, 1).map((p) => p.id),
      });
    }
  }
  if (sentences.length > 0) return sentences;
  const ids = await papersOnTopic(deps, state);
  if (ids.length === 0 || !(await relevant(deps, state, ids))) return null;
  const topic = topicOf(state.question) || state.rewrite;
  const meta = [...(await deps.catalog.evidencePapers(ids)).values()];
  if (/\b(who|authors?|researchers|prolific|wrote)\b/i.test(state.question)) {
    const authors = await deps.analytics.authorsOfPapers(ids, 5);
    if (authors.length > 0) {
      sentences.push({
        text: `Among the ${ids.length} papers the graph holds on "${topic}", the authors with the most papers are ${authors.map((a) => `${a.name} (${a.count})`).join(', ')}.`,
        papers: [...new Set(authors.flatMap((a) => a.paperIds.slice(0, 1)))].slice(0, 5),
      });
    }
  }
  const global = /global|overall|world/i.test(state.question);
  const top = [...meta]
    .sort((a, b) =>
      global
        ? b.citedByCount - a.citedByCount
        : b.internalCitations - a.internalCitations || b.citedByCount - a.citedByCount,
    )
    .slice(0, 3);
  sentences.push({
    text: `Of the ${ids.length} papers the graph holds on "${topic}", the most cited are ${top.map((p) => `"${p.title}" (${p.year ?? 'n.d.'}; ${p.internalCitations} citations inside the graph, ${p.citedByCount} in all)`).join(', ')}.`,
    papers: top.map((p) => p.id),
  });
  return sentences;
}

async function trendSentences(
  deps: AskDependencies,
  state: Gathered,
): Promise<{ sentences: ComputedSentence[]; perYear: string } | null> {
  const currentYear = new Date().getFullYear();
  const from = state.decision.years.from ?? 1990;
  const to = Math.min(state.decision.years.to ?? currentYear, currentYear);
  const topic = topicOf(state.question) || state.rewrite;
  const trend = await deps.analytics.queryTrend(state.ctx, topic || state.question, from, to, {
    collections: state.options.collections ?? null,
  });
  if (trend.total === 0 || !(await relevant(deps, state, trend.paperIds))) return null;
  const peak = [...trend.points].sort((a, b) => b.count - a.count || b.year - a.year)[0]!;
  const active = trend.points.filter((p) => p.count > 0);
  const half = Math.floor(trend.points.length / 2);
  const early = trend.points.slice(0, half).reduce((s, p) => s + p.count, 0);
  const late = trend.points.slice(half).reduce((s, p) => s + p.count, 0);
  return {
    sentences: [
      {
        text: `Among the ${trend.total} papers that best match "${topic}" between ${from} and ${to}, publication runs from ${active[0]!.year} to ${active[active.length - 1]!.year} and peaks in ${peak.year} with ${peak.count} papers.`,
        papers: trend.paperIds.slice(0, 3),
      },
      {
        text: `The later half of the period has ${late} papers against ${early} in the earlier half${trend.cagr !== null ? `, a compound annual growth of ${(100 * trend.cagr).toFixed(1)}%` : ''}.`,
        papers: trend.paperIds.slice(0, 1),
      },
    ],
    perYear: active.map((p) => `${p.year}: ${p.count}`).join(', '),
  };
}

/** An answer made of computed figures; each sentence cites the papers it counted. */
async function computedAnswer(
  deps: AskDependencies,
  state: Gathered,
  sentences: ComputedSentence[],
  generator: 'bibliometric' | 'trend',
  perYear?: string,
): Promise<Computed> {
  await state.pool.addPapers([...new Set(sentences.flatMap((s) => s.papers))], 'local', 'counted papers');
  const scored: Gathered = { ...state, sufficiency: sufficiencyOf(deps, state) };
  const firstEvidence = new Map<string, Evidence>(scored.pool.bestPerPaper().map((e) => [e.paperId, e]));
  const numbers = new Map<string, number>();
  const verified = sentences.map((sentence) => ({
    text: sentence.text,
    citations: sentence.papers
      .map((paperId) => firstEvidence.get(paperId))
      .filter((e): e is Evidence => e !== undefined)
      .map((e) => {
        if (!numbers.has(e.id)) numbers.set(e.id, numbers.size + 1);
        return {
          marker: numbers.get(e.id)!,
          evidenceId: e.id,
          paperId: e.paperId,
          chunkId: e.chunkId,
          quote: e.paper.title ?? e.text.slice(0, 120),
          start: e.start,
          end: e.end,
          supportScore: 1,
          method: 'computed' as const,
        };
      }),
  }));
  const markers = (s: (typeof verified)[number]) =>
    s.citations.length ? ` ${[...new Set(s.citations.map((c) => `[${c.marker}]`))].join('')}` : '';
  const answer =
    verified.map((s) => `${s.text.replace(/\.$/, '')}${markers(s)}.`).join(' ') +
    (perYear ? ` Papers per year: ${perYear}.` : '');
  const parts: AnswerParts = {
    answer,
    sentences: verified,
    bibliography: [...numbers.entries()].map(([evidenceId, marker]) => ({ marker, evidenceId })),
    dropped: [],
    generator,
    abstained: false,
    reason: null,
    sourceNote: 'Figures computed from the citegraph graph; the cited papers are those counted.',
  };
  return { ...scored, computed: parts };
}

/**
 * Bibliometric and trend questions answered from the graph's counts (author profiles, most cited papers, authors with
 * most papers, per-year counts), citing the counted papers. Null when nothing countable matched: the content path runs.
 */
export function computedAnswerStage(deps: AskDependencies): Stage<Rewritten, Computed> {
  const start = (state: Rewritten): Gathered => {
    const pool = new EvidencePool(state.question, state.questionVector, deps);
    return { ...state, pool, sufficiency: sufficiencyOf(deps, { ...state, pool }), externalSearches: [] };
  };
  return {
    name: 'computed',
    run: async (state) => {
      const gathered = start(state);
      if (gathered.decision.route === 'trend') {
        const trend = await trendSentences(deps, gathered);
        return trend
          ? computedAnswer(deps, gathered, trend.sentences, 'trend', trend.perYear)
          : { ...gathered, computed: null };
      }
      const sentences = await bibliometricSentences(deps, gathered);
      return sentences ? computedAnswer(deps, gathered, sentences, 'bibliometric') : { ...gathered, computed: null };
    },
    tolerates: { failure: isNonFatal, fallback: (state) => ({ ...start(state), computed: null }) },
    note: (state) =>
      state.computed ? `${state.computed.generator} answer` : 'nothing countable matched; content route',
  };
}
