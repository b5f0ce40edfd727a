import { MAX_PAGE } from '../../paging';
import {
  mergeByOrcid,
  type PaperGroup,
  smoothedGrowth,
  type Person,
  type TopicSet,
  type TopicSetPaper,
} from '../../analytics/analytics-service';
import type { Evidence, PaperFilter } from '../../domain';
import type { VerifiedCitation } from '../../generation/verify';
import { contentTerms, terms } from '../../text';
import type { AnswerFigure, AskDependencies, Gathered, Rewritten } from '../ask-types';
import { EvidencePool } from '../evidence-pool';
import { type AnalyticsPlan, describePlan } from '../planner';
import type { AnswerParts } from '../result';
import { isNonFatal, type Stage } from '../stage';
import { sufficiencyOf } from './gather-evidence';

/** A sentence of figures and the papers it counted (which it cites, by title). */
interface ComputedSentence {
  text: string;
  papers: string[];
}

/** What a plan computed: sentences, or why nothing could be (then the answer abstains and says so). */
type Outcome = { sentences: ComputedSentence[]; extra?: string; figure?: AnswerFigure } | { refusal: string };

/** After the bibliometric or trend computation: an answer, or null when the question is not one the plan can answer. */
export interface Computed extends Gathered {
  readonly plan: AnalyticsPlan | null;
  readonly computed: AnswerParts | null;
}

const LIST = 5;

/** A mean count as an answer states it: whole numbers as they are, others to two decimals. */
const mean = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
const years = (window: { from: number; to: number }) =>
  window.from === window.to ? String(window.from) : `${window.from}–${window.to}`;

const quoteList = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

function filterOf(state: Gathered, plan: AnalyticsPlan, venues: string[] | null): PaperFilter {
  return {
    collections: state.options.collections ?? null,
    yearFrom: plan.yearFrom,
    yearTo: plan.yearTo,
    venues,
  };
}

function yearsText(plan: AnalyticsPlan): string {
  if (plan.yearFrom !== null && plan.yearTo !== null)
    return plan.yearFrom === plan.yearTo ? ` in ${plan.yearFrom}` : ` from ${plan.yearFrom} to ${plan.yearTo}`;
  if (plan.yearFrom !== null) return ` since ${plan.yearFrom}`;
  if (plan.yearTo !== null) return ` up to ${plan.yearTo}`;
  return '';
}

/** Where an open window ("since 2015") ends: the last year the counted papers cover, said in the answer. */
function coverageText(set: TopicSet, plan: AnalyticsPlan): string {
  if (plan.yearTo !== null) return '';
  const span = spanOf(set.papers, plan);
  return span ? `, up to ${span[1]}, the last year these papers in the graph cover` : '';
}

function setText(set: TopicSet, plan: AnalyticsPlan, venue: string | null): string {
  return `${set.papers.length}${set.truncated ? '+' : ''} papers in the graph match the topic "${set.phrase}"${yearsText(plan)}${plan.yearFrom !== null ? coverageText(set, plan) : ''}${venue ? ` in ${venue}` : ''} (${set.rule})`;
}

/** The years a plan counts over: those asked for, closed by the years the counted papers span. */
function spanOf(papers: readonly { year: number | null }[], plan: AnalyticsPlan): readonly [number, number] | null {
  const years = papers.map((p) => p.year).filter((y): y is number => y !== null);
  if (years.length === 0) return null;
  return [plan.yearFrom ?? Math.min(...years), plan.yearTo ?? Math.max(...years)];
}

const ranking = (
  items: ReadonlyArray<{ id: string; label: string | null | undefined; value: number }>,
  years: readonly [number, number] | null = null,
): AnswerFigure => ({
  kind: 'top',
  value: null,
  items: items.map((item) => ({ id: item.id, label: item.label ?? item.id, value: item.value })),
  years,
});

/** A comparison as an answer: each side with its figure, the larger named first; a tie is said as one. */
function comparison(
  measure: string,
  sides: ReadonlyArray<{ id: string; label: string; value: number; detail: string; papers: string[] }>,
  span: readonly [number, number] | null,
  extra = '',
): Outcome {
  const ordered = [...sides].sort((a, b) => b.value - a.value);
  const [first, second] = ordered;
  const verdict =
    first!.value === second!.value
      ? `${first!.label} and ${second!.label} are level on ${measure} (${first!.value} each)`
      : `${first!.label} has more ${measure} than ${second!.label}: ${first!.value} against ${second!.value}`;
  return {
    sentences: [
      { text: `${verdict}.`, papers: [] },
      ...sides.map((side) => ({ text: `${side.detail}.`, papers: side.papers })),
    ],
    extra: extra || undefined,
    figure: {
      kind: 'choice',
      value: null,
      items: ordered.map((side) => ({ id: side.id, label: side.label, value: side.value })),
      years: span,
    },
  };
}

function mostCited(papers: readonly TopicSetPaper[], basis: AnalyticsPlan['citationBasis']): TopicSetPaper[] {
  return [...papers].sort((a, b) =>
    basis === 'global'
      ? b.citedByCount - a.citedByCount || b.internalCitations - a.internalCitations
      : b.internalCitations - a.internalCitations || b.citedByCount - a.citedByCount || a.id.localeCompare(b.id),
  );
}

function groupSentence(
  label: string,
  groups: readonly PaperGroup[],
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
) {
  return {
    text: `${setText(set, plan, venue)}; counted by ${label}, the most frequent are ${quoteList(groups.map((g) => `${g.name ?? g.id} (${g.count} papers)`))}.`,
    papers: groups.flatMap((g) => g.paperIds.slice(0, 1)),
  };
}

function personText(person: Person): string {
  const namesakes = person.namesakes.length
    ? ` Note: ${person.namesakes.length} other author record${person.namesakes.length > 1 ? 's' : ''} in the graph share${person.namesakes.length > 1 ? '' : 's'} the name without a common ORCID (${person.namesakes.map((n) => `${n.id}, ${n.papers} papers`).join('; ')}) and may be the same person; they are not counted here.`
    : '';
  const byOrcid = person.ids.length - person.linked.reduce((sum, group) => sum + group.ids.length, 0);
  const merged = byOrcid > 1 ? ` (${byOrcid} author records with ORCID ${person.orcid}, counted as one)` : '';
  const linked = person.linked.length
    ? ` Counted in as the same person: ${person.linked.length} other author record${person.linked.length > 1 ? 's' : ''} of a fitting name that share${person.linked.length > 1 ? '' : 's'} co-authors with ${person.name} (${person.linked.map((group) => `${group.name}, ${group.ids.join(', ')}, ${group.papers} papers`).join('; ')}).`
    : '';
  return `${merged}${linked}${namesakes}`;
}

async function runPlan(deps: AskDependencies, state: Gathered, plan: AnalyticsPlan): Promise<Outcome> {
  const { analytics } = deps;
  // A venue named in the question filters the papers (the largest venue of that name).
  let venue: { id: string; name: string } | null = null;
  if (plan.venue) {
    const [match] = await analytics.venuesByName(plan.venue, 1);
    if (!match) return { refusal: `no venue in the graph is named like "${plan.venue}"` };
    venue = match;
  }
  const filter = filterOf(state, plan, venue ? [venue.id] : null);

  if (plan.operation === 'compare_people') {
    const names = [plan.person, plan.second].filter((name): name is string => !!name);
    const people = await Promise.all(names.map((name) => analytics.resolvePerson(name)));
    const missing = names.filter((_, i) => !people[i]);
    if (names.length < 2 || missing.length > 0)
      return { refusal: `no identified author in the graph is named ${missing.map((n) => `"${n}"`).join(' or ')}` };
    const measured = await Promise.all(people.map((person) => analytics.personMetrics(person!.ids)));
    const metric = /h-?index/i.test(state.question)
      ? { id: 'h_index', label: 'h-index (global citations)', of: (m: (typeof measured)[0]) => m.hIndexGlobal }
      : /\b(?:cited|citations?)\b/i.test(state.question)
        ? { id: 'citations', label: 'global citations', of: (m: (typeof measured)[0]) => m.citationsGlobal }
        : { id: 'papers', label: 'papers in the graph', of: (m: (typeof measured)[0]) => m.works };
    const rows = people.map((person, i) => ({
      person: person!,
      value: metric.of(measured[i]!),
      metrics: measured[i]!,
    }));
    return comparison(
      `${metric.label}`,
      rows.map((row) => ({
        id: row.person.ids[0]!,
        label: row.person.name,
        value: row.value,
        detail: `${row.person.name}: ${row.value} (${row.metrics.works} papers in the graph, h-index ${row.metrics.hIndexGlobal} from global citations, ${row.metrics.hIndexInternal} from citations inside it)${personText(row.person)}`,
        papers: row.metrics.topPaperIds.slice(0, 2),
      })),
      null,
    );
  }

  if (plan.operation === 'compare_topics') {
    const phrases = [plan.topic, plan.second].filter((phrase): phrase is string => !!phrase);
    if (phrases.length < 2) return { refusal: 'the question does not name two topics to compare' };
    const sets = await Promise.all(phrases.map((phrase) => analytics.topicSet(phrase, filter)));
    const empty = sets.filter((set) => set.papers.length === 0).map((set) => `"${set.phrase}"`);
    if (empty.length === 2) return { refusal: `no paper in the graph matches the topics ${empty.join(' or ')}` };
    return comparison(
      `papers${yearsText(plan)}`,
      sets.map((set) => ({
        id: set.phrase,
        label: set.phrase,
        value: set.papers.length,
        detail: setText(set, plan, venue?.name ?? null),
        papers: mostCited(set.papers, plan.citationBasis)
          .slice(0, 2)
          .map((p) => p.id),
      })),
      null,
    );
  }

  if (plan.operation === 'compare_periods') {
    if (!plan.topic || !plan.periods) return { refusal: 'the question does not name a topic and two windows of years' };
    const windows = plan.periods;
    const sets = await Promise.all(
      windows.map((w) => analytics.topicSet(plan.topic!, { ...filter, yearFrom: w.from, yearTo: w.to })),
    );
    if (sets.every((set) => set.papers.length === 0))
      return {
        refusal: `no paper in the graph matches the topic "${plan.topic}" in ${windows.map(years).join(' or ')}`,
      };
    return comparison(
      `papers on "${plan.topic}"`,
      sets.map((set, i) => ({
        id: `[${windows[i]!.from}, ${windows[i]!.to}]`,
        label: years(windows[i]!),
        value: set.papers.length,
        detail: `${years(windows[i]!)}: ${set.papers.length}${set.truncated ? '+' : ''} papers (${(set.papers.length / (windows[i]!.to - windows[i]!.from + 1)).toFixed(1)} a year)`,
        papers: mostCited(set.papers, plan.citationBasis)
          .slice(0, 2)
          .map((p) => p.id),
      })),
      [Math.min(...windows.map((w) => w.from)), Math.max(...windows.map((w) => w.to))],
      ` The papers on the topic are those by its rule: ${sets[0]!.rule.replace(/: \d+ by words.*$/, '')}.`,
    );
  }

  if (plan.operation === 'derivative_works' || plan.operation === 'prior_works') {
    const found = await planPaper(deps, state, plan, filter);
    if ('refusal' in found) return found;
    const { paper } = found;
    const citing = plan.operation === 'derivative_works';
    const page = { skip: 0, limit: MAX_PAGE };
    const sort = { by: 'CITATIONS' as const, descending: true };
    const slice = citing
      ? await analytics.paperCitedBy(paper.id, page, sort)
      : await analytics.paperReferences(paper.id, page, sort);
    // Full papers only: a reference the graph knows only as a stub is not a work "in the graph".
    const rows = slice.items.filter((row) => !row.stub);
    const total = citing ? slice.total : rows.length;
    const title = paper.title ?? paper.id;
    const counted = citing
      ? `${total} paper${total === 1 ? '' : 's'} in the graph cite "${title}"${paper.year ? ` (${paper.year})` : ''}`
      : `"${title}"${paper.year ? ` (${paper.year})` : ''} cites ${total} paper${total === 1 ? '' : 's'} that the graph holds in full`;
    const top = rows.slice(0, LIST);
    return {
      sentences: [
        {
          text: top.length
            ? `${counted}; the most cited of them are ${quoteList(top.map((r) => `"${r.title ?? r.id}" (${r.year ?? 'n.d.'}, ${r.citedByCount ?? 0} citations)`))}.`
            : `${counted}.`,
          papers: [paper.id, ...top.map((r) => r.id)],
        },
      ],
      figure: {
        kind: 'count',
        value: total,
        items: top.map((r) => ({ id: r.id, label: r.title ?? r.id, value: r.citedByCount ?? 0 })),
        years: null,
      },
    };
  }

  if (plan.operation === 'author_metrics' || plan.operation === 'coauthors') {
    const step = plan.person ? null : await firstStepPerson(deps, plan, filter);
    if (step && 'refusal' in step) return step;
    const name = step?.name ?? plan.person;
    const person = name ? await analytics.resolvePerson(name) : null;
    if (!person) return { refusal: `no identified author in the graph is named "${name ?? ''}"` };
    const stepSentences = step ? [step.sentence] : [];
    const metrics = await analytics.personMetrics(person.ids);
    if (plan.operation === 'author_metrics') {
      return {
        sentences: [
          ...stepSentences,
          {
            text: `${person.name} has ${metrics.works} papers in the graph (${metrics.firstYear ?? '?'}–${metrics.lastYear ?? '?'}), with an h-index of ${metrics.hIndexInternal} from citations inside the graph (${metrics.citationsInternal} citations) and ${metrics.hIndexGlobal} from global citation counts (${metrics.citationsGlobal} citations).${personText(person)}`,
            papers: metrics.topPaperIds.slice(0, 3),
          },
        ],
        figure: {
          kind: 'metrics',
          value: null,
          items: [
            { id: 'papers', label: 'papers in the graph', value: metrics.works },
            { id: 'h_index', label: 'h-index (global citations)', value: metrics.hIndexGlobal },
            { id: 'h_index_internal', label: 'h-index (citations inside the graph)', value: metrics.hIndexInternal },
            { id: 'citations', label: 'global citations', value: metrics.citationsGlobal },
            { id: 'citations_internal', label: 'citations inside the graph', value: metrics.citationsInternal },
          ],
          years: metrics.firstYear !== null && metrics.lastYear !== null ? [metrics.firstYear, metrics.lastYear] : null,
        },
      };
    }
    const coauthors = await analytics.personCoauthors(person.ids, LIST);
    if (coauthors.length === 0) return { refusal: `${person.name} has no identified co-author in the graph` };
    return {
      sentences: [
        ...stepSentences,
        {
          text: `Counted over ${person.name}'s ${metrics.works} papers in the graph, the most frequent co-authors are ${quoteList(coauthors.map((c) => `${c.name ?? c.id} (${c.count} joint papers${c.possiblySame.length ? `; possibly the same person as ${c.possiblySame.join(', ')}` : ''})`))}.${personText(person)}`,
          papers: [...new Set(coauthors.flatMap((c) => c.paperIds.slice(0, 1)))],
        },
      ],
      figure: ranking(coauthors.map((c) => ({ id: c.id, label: c.name, value: c.count }))),
    };
  }

  if (plan.operation === 'related_papers') {
    const found = await planPaper(deps, state, plan, filter);
    if ('refusal' in found) return found;
    const { paper, step } = found;
    const page = { skip: 0, limit: LIST };
    const rows =
      plan.relation === 'cocited'
        ? (await analytics.paperCocited(paper.id, page)).items.map((r) => ({
            paper: r.paper,
            detail: `co-cited ${r.count} times`,
          }))
        : plan.relation === 'coupled'
          ? (await analytics.paperCoupled(paper.id, page)).items.map((r) => ({
              paper: r.paper,
              detail: `${r.count} shared references`,
            }))
          : (await analytics.paperRelated(paper.id, LIST)).map((r) => ({
              paper: r.paper,
              detail: `co-cited ${r.cocited}, ${r.coupled} shared references${r.direct ? ', direct citation' : ''}`,
            }));
    const how =
      plan.relation === 'cocited'
        ? 'most often cited together with'
        : plan.relation === 'coupled'
          ? 'sharing the most references with'
          : 'most closely related by citations to';
    if (rows.length === 0) return { refusal: `the graph has no paper ${how} "${paper.title ?? paper.id}"` };
    return {
      sentences: [
        ...(step ? [step.sentence] : []),
        {
          text: `The papers ${how} "${paper.title ?? paper.id}" are ${quoteList(rows.map((r) => `"${r.paper.title ?? r.paper.id}" (${r.detail})`))}.`,
          papers: [paper.id, ...rows.map((r) => r.paper.id)],
        },
      ],
      figure: ranking(rows.map((r, index) => ({ id: r.paper.id, label: r.paper.title, value: rows.length - index }))),
    };
  }

  // Topic operations: every paper on the topic, not the top hits of a search.
  if (!plan.topic) return { refusal: 'the question names no topic to count papers on' };
  const set = await analytics.topicSet(plan.topic, filter);
  if (set.papers.length === 0) {
    return { refusal: `no paper in the graph matches the topic "${plan.topic}"${yearsText(plan)} (${set.rule})` };
  }
  const ids = set.papers.map((p) => p.id);
  const venueName = venue?.name ?? null;
  switch (plan.operation) {
    case 'count_papers': {
      const top = mostCited(set.papers, plan.citationBasis).slice(0, 3);
      return {
        sentences: [
          {
            text: `${setText(set, plan, venueName)}; the most cited of them are ${quoteList(top.map((p) => `"${p.title ?? p.id}"`))}.`,
            papers: top.map((p) => p.id),
          },
        ],
        figure: { kind: 'count', value: set.papers.length, items: [], years: spanOf(set.papers, plan) },
      };
    }
    case 'top_papers': {
      const top = mostCited(set.papers, plan.citationBasis).slice(0, LIST);
      const basis =
        plan.citationBasis === 'global' ? 'global citation count' : 'citations from other papers in the graph';
      return {
        sentences: [
          {
            text: `${setText(set, plan, venueName)}; ranked by ${basis}, the most cited are ${quoteList(top.map((p) => `"${p.title ?? p.id}" (${p.year ?? 'n.d.'}; ${p.internalCitations} citations in the graph, ${p.citedByCount} in all)`))}.`,
            papers: top.map((p) => p.id),
          },
        ],
        figure: ranking(
          top.map((p) => ({
            id: p.id,
            label: p.title,
            value: plan.citationBasis === 'global' ? p.citedByCount : p.internalCitations,
          })),
          spanOf(set.papers, plan),
        ),
      };
    }
    case 'top_authors': {
      const rows = await analytics.authorsOfPapers(ids, LIST * 4);
      const people = mergeByOrcid(rows.map((r) => ({ ...r, name: r.name })));
      if (people.length === 0) return { refusal: `the papers on "${plan.topic}" have no identified authors` };
      const top = people.slice(0, LIST);
      return {
        sentences: [
          {
            text: `${setText(set, plan, venueName)}; counted by author, the authors with the most of these papers are ${quoteList(top.map((p) => `${p.name ?? p.id} (${p.count} papers${p.ids.length > 1 ? `, ${p.ids.length} records sharing an ORCID` : ''}${p.possiblySame.length ? `; possibly the same person as ${p.possiblySame.join(', ')}` : ''})`))}.`,
            papers: [...new Set(top.flatMap((p) => p.paperIds.slice(0, 1)))],
          },
        ],
        figure: ranking(
          top.map((p) => ({ id: p.id, label: p.name, value: p.count })),
          spanOf(set.papers, plan),
        ),
      };
    }
    case 'top_venues': {
      const groups = await analytics.venuesOfPapers(ids, LIST);
      if (groups.length === 0) return { refusal: `the papers on "${plan.topic}" have no venue recorded` };
      return {
        sentences: [groupSentence('venue', groups, set, plan, venueName)],
        figure: ranking(
          groups.map((g) => ({ id: g.id, label: g.name, value: g.count })),
          spanOf(set.papers, plan),
        ),
      };
    }
    case 'top_institutions': {
      const groups = await analytics.institutionsOfPapers(ids, LIST);
      if (groups.length === 0)
        return { refusal: `the authors of the papers on "${plan.topic}" have no institution recorded` };
      return {
        sentences: [groupSentence('the institutions of their identified authors', groups, set, plan, venueName)],
        figure: ranking(
          groups.map((g) => ({ id: g.id, label: g.name, value: g.count })),
          spanOf(set.papers, plan),
        ),
      };
    }
    case 'topic_trend':
      return trend(deps, set, plan, venueName);
    case 'emerging_topics':
      return emerging(deps, set, plan, venueName);
    case 'collaboration_network':
      return collaboration(deps, set, plan, venueName);
    default:
      return { refusal: `the plan ${describePlan(plan)} has no computation` };
  }
}

/** The paper a question names: by DOI, or the best search hit when most of the quoted title's words are its title's. */
/** The first step of a plan reaching a person through a ranking: the topic's most prolific or most cited author. */
async function firstStepPerson(
  deps: AskDependencies,
  plan: AnalyticsPlan,
  filter: PaperFilter,
): Promise<{ name: string; sentence: ComputedSentence } | { refusal: string } | null> {
  if (plan.firstStep !== 'most_prolific_author' && plan.firstStep !== 'most_cited_author') return null;
  if (!plan.topic) return { refusal: 'the question names no topic to find its author on' };
  const set = await deps.analytics.topicSet(plan.topic, filter);
  if (set.papers.length === 0)
    return { refusal: `no paper in the graph matches the topic "${plan.topic}"${yearsText(plan)} (${set.rule})` };
  const cited = plan.firstStep === 'most_cited_author';
  const rows = await deps.analytics.authorsOfPapers(
    set.papers.map((p) => p.id),
    MAX_PAGE,
    cited ? plan.citationBasis : 'papers',
  );
  const value = (row: (typeof rows)[number]) =>
    cited ? (plan.citationBasis === 'global' ? row.globalCitations : row.internalCitations) : row.count;
  // Records sharing an ORCID are one person here too: their counts add up before the first is taken.
  const [top] = mergeByOrcid(rows.map((row) => ({ ...row, count: value(row) })));
  if (!top) return { refusal: `the papers on "${plan.topic}" have no identified authors` };
  const measure = cited
    ? `${top.count} ${plan.citationBasis === 'global' ? 'global citations' : 'citations inside the graph'} of those papers`
    : `${top.count} of those papers`;
  return {
    name: top.name ?? top.id,
    sentence: {
      text: `${setText(set, plan, null)}; the ${cited ? 'most cited' : 'most prolific'} author among them is ${top.name ?? top.id} (${measure}).`,
      papers: top.paperIds.slice(0, 2),
    },
  };
}

/** The paper a plan is about: reached by its first step (the topic's most cited paper), or named by the question. */
async function planPaper(
  deps: AskDependencies,
  state: Gathered,
  plan: AnalyticsPlan,
  filter: PaperFilter,
): Promise<
  | { paper: { id: string; title?: string | null; year?: number | null }; step: { sentence: ComputedSentence } | null }
  | { refusal: string }
> {
  const step = plan.paper ? null : await firstStepPaper(deps, plan, filter);
  if (step && 'refusal' in step) return step;
  const paper = step ? step.paper : await resolvePaper(deps, state, plan.paper ?? '');
  if (!paper) return { refusal: `no paper in the graph matches "${(plan.paper ?? '').slice(0, 120)}"` };
  return { paper, step };
}

/** The first step of a plan reaching a paper through a ranking: the topic's most cited paper. */
async function firstStepPaper(
  deps: AskDependencies,
  plan: AnalyticsPlan,
  filter: PaperFilter,
): Promise<
  | { paper: { id: string; title?: string | null; year?: number | null }; sentence: ComputedSentence }
  | { refusal: string }
  | null
> {
  if (plan.firstStep !== 'most_cited_paper') return null;
  if (!plan.topic) return { refusal: 'the question names no topic to find its most cited paper on' };
  const set = await deps.analytics.topicSet(plan.topic, filter);
  const [top] = mostCited(set.papers, plan.citationBasis);
  if (!top)
    return { refusal: `no paper in the graph matches the topic "${plan.topic}"${yearsText(plan)} (${set.rule})` };
  const count =
    plan.citationBasis === 'global'
      ? `${top.citedByCount} global citations`
      : `${top.internalCitations} citations inside the graph`;
  return {
    paper: top,
    sentence: {
      text: `${setText(set, plan, null)}; the most cited of them is "${top.title ?? top.id}" (${count}).`,
      papers: [top.id],
    },
  };
}

async function resolvePaper(deps: AskDependencies, state: Gathered, reference: string) {
  if (reference.trim() === '') return null;
  if (/^10\.\d{4,9}\//.test(reference)) return deps.catalog.paperByDoi(reference);
  if (/^[A-Z][A-Z0-9-]+(?: \d{1,2})?$/.test(reference)) {
    const id = await deps.analytics.paperNamed(reference, { collections: state.options.collections ?? null });
    return id ? ((await deps.catalog.papersByIds([id]))[0] ?? null) : null;
  }
  // A reference of no searchable words (a name of stopwords, punctuation) names no paper.
  if (contentTerms(reference).length === 0) return null;
  const response = await deps.search.search(
    state.ctx,
    reference,
    1,
    { collections: state.options.collections ?? null },
    { passages: 0 },
  );
  const hit = response.results[0]?.paper;
  if (!hit?.title) return null;
  const words = new Set(terms(reference));
  const title = new Set(terms(hit.title));
  const shared = [...words].filter((w) => title.has(w)).length;
  return shared / Math.max(1, words.size) >= 0.8 ? hit : null;
}

/**
 * The years a trend counts over: the years asked for, else those the topic's papers span, up to `lastYear`; or why
 * there are none.
 */
function yearWindow(
  set: TopicSet,
  plan: AnalyticsPlan,
  lastYear: number,
): { from: number; to: number } | { refusal: string } {
  const years = set.papers.map((p) => p.year).filter((y): y is number => y !== null);
  if (years.length === 0) return { refusal: `the papers on "${set.phrase}" have no publication years` };
  return { from: plan.yearFrom ?? Math.min(...years), to: Math.min(plan.yearTo ?? Math.max(...years), lastYear) };
}

async function trend(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const currentYear = new Date().getFullYear();
  // The current year is incomplete: it is not counted.
  const window = yearWindow(set, plan, currentYear - 1);
  if ('refusal' in window) return window;
  const { from, to } = window;
  if (to < from) return { refusal: `no complete year between ${from} and ${currentYear - 1} to count` };
  const points = await deps.analytics.yearsOfPapers(
    set.papers.map((p) => p.id),
    from,
    Math.min(to, from + 199),
  );
  const active = points.filter((p) => p.count > 0);
  if (active.length === 0) return { refusal: `no paper on "${set.phrase}" falls in ${from}–${to}` };
  const total = points.reduce((sum, p) => sum + p.count, 0);
  const peak = [...active].sort((a, b) => b.count - a.count || b.year - a.year)[0]!;
  const growth = smoothedGrowth(points);
  const half = Math.ceil(points.length / 2);
  const early = points.slice(0, half);
  const late = points.slice(half);
  const sum = (list: typeof points) => list.reduce((s, p) => s + p.count, 0);
  const cited = mostCited(set.papers, 'internal')
    .slice(0, 3)
    .map((p) => p.id);
  const sentences: ComputedSentence[] = [
    {
      text: `${set.papers.length}${set.truncated ? '+' : ''} papers in the graph match the topic "${set.phrase}"${venue ? ` in ${venue}` : ''} (${set.rule}); ${total} of them were published from ${from} to ${to}, peaking in ${peak.year} with ${peak.count} papers.`,
      papers: cited,
    },
  ];
  if (growth !== null) {
    const { early, late: lateWindow } = growth;
    const span = (lateWindow.from + lateWindow.to) / 2 - (early.from + early.to) / 2;
    sentences.push({
      text: `From ${mean(early.mean)} papers a year in ${years(early)} to ${mean(lateWindow.mean)} in ${years(lateWindow)}, the compound annual growth is ${(100 * growth.rate).toFixed(1)}% ((${mean(lateWindow.mean)}/${mean(early.mean)})^(1/${span}) − 1, each end the mean of up to three years).`,
      papers: cited.slice(0, 1),
    });
  }
  if (late.length > 0) {
    sentences.push({
      text: `${early[0]!.year}–${early[early.length - 1]!.year} has ${sum(early)} papers and ${late[0]!.year}–${late[late.length - 1]!.year} has ${sum(late)}.`,
      papers: cited.slice(0, 1),
    });
  }
  return {
    sentences,
    extra: `Papers per year: ${active.map((p) => `${p.year}: ${p.count}`).join(', ')}.`,
    figure: {
      kind: 'peak',
      value: peak.year,
      items: points.map((p) => ({ id: String(p.year), label: String(p.year), value: p.count })),
      years: [from, to],
    },
  };
}

async function emerging(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const window = yearWindow(set, plan, new Date().getFullYear());
  if ('refusal' in window) return window;
  const { from, to } = window;
  if (to <= from) return { refusal: `emerging topics need at least two years of papers on "${set.phrase}"` };
  const split = from + Math.ceil((to - from + 1) / 2);
  const inWindow = set.papers.filter((p) => p.year !== null && p.year >= from && p.year <= to);
  const topics = await deps.catalog.topicsOfPapers(
    inWindow.map((p) => p.id),
    10,
  );
  const yearOf = new Map(inWindow.map((p) => [p.id, p.year!]));
  const counts = new Map<string, { name: string; early: number; late: number; papers: string[] }>();
  const own = new Set(set.phrase.toLowerCase().split(/\s+/));
  for (const [paperId, list] of topics) {
    for (const { topic, score } of list) {
      if (score < 0.3 || !topic.name || (topic.level ?? 0) < 1) continue;
      if (
        topic.name
          .toLowerCase()
          .split(/\s+/)
          .every((w) => own.has(w))
      )
        continue;
      const entry = counts.get(topic.id) ?? { name: topic.name, early: 0, late: 0, papers: [] };
      if (yearOf.get(paperId)! < split) entry.early += 1;
      else {
        entry.late += 1;
        if (entry.papers.length < 2) entry.papers.push(paperId);
      }
      counts.set(topic.id, entry);
    }
  }
  const ranked = [...counts.values()]
    .filter((t) => t.late >= 3)
    .map((t) => ({ ...t, growth: (t.late + 1) / (t.early + 1) }))
    .sort((a, b) => b.growth - a.growth || b.late - a.late || a.name.localeCompare(b.name))
    .slice(0, LIST);
  if (ranked.length === 0)
    return { refusal: `no sub-topic of "${set.phrase}" has three or more papers in ${split}–${to}` };
  return {
    sentences: [
      {
        text: `Among the ${inWindow.length} papers on "${set.phrase}"${venue ? ` in ${venue}` : ''} from ${from} to ${to} (${set.rule}), the topics that grew most from ${from}–${split - 1} to ${split}–${to} are ${quoteList(ranked.map((t) => `${t.name} (${t.early} → ${t.late} papers)`))}.`,
        papers: [...new Set(ranked.flatMap((t) => t.papers.slice(0, 1)))],
      },
    ],
  };
}

async function collaboration(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const authors = await deps.catalog.authorsOfPapers(set.papers.map((p) => p.id));
  const pairs = new Map<string, { a: string; b: string; papers: string[] }>();
  const names = new Map<string, string>();
  for (const [paperId, list] of authors) {
    const ids = [...new Set(list.filter((x) => !x.author.anonymous).map((x) => x.author.id))].sort().slice(0, 30);
    for (const x of list) names.set(x.author.id, x.author.name ?? x.author.id);
    for (let i = 0; i < ids.length; i += 1)
      for (let j = i + 1; j < ids.length; j += 1) {
        const key = `${ids[i]}|${ids[j]}`;
        const entry = pairs.get(key) ?? { a: ids[i]!, b: ids[j]!, papers: [] };
        entry.papers.push(paperId);
        pairs.set(key, entry);
      }
  }
  const strong = [...pairs.values()].filter((p) => p.papers.length >= 2);
  if (strong.length === 0)
    return { refusal: `no two identified authors wrote two or more papers on "${set.phrase}" together` };
  const people = new Set(strong.flatMap((p) => [p.a, p.b]));
  const top = strong.sort((x, y) => y.papers.length - x.papers.length || x.a.localeCompare(y.a)).slice(0, LIST);
  return {
    sentences: [
      {
        text: `${setText(set, plan, venue)}; in their co-authorship network, ${people.size} identified authors form ${strong.length} pairs with two or more joint papers; the strongest are ${quoteList(top.map((p) => `${names.get(p.a)} & ${names.get(p.b)} (${p.papers.length} joint papers)`))}.`,
        papers: [...new Set(top.map((p) => p.papers[0]!))],
      },
    ],
  };
}

/** Computed sentences as a cited answer: each counted paper is cited by its title (the quote is the title). */
async function computedAnswer(
  deps: AskDependencies,
  state: Gathered,
  plan: AnalyticsPlan,
  outcome: Outcome,
): Promise<Computed> {
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
    (outcome.extra ? ` ${outcome.extra}` : '');
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
    },
  };
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
      return computedAnswer(deps, gathered, state.plan, await runPlan(deps, gathered, state.plan));
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
