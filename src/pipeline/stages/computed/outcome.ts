/**
 * What a plan operation computes (sentences citing the papers they counted, or a refusal) and the words answers share:
 * the filter and scope a question names, years, topic sets, rankings, comparisons and people.
 */
import { type PaperGroup } from '../../../analytics/analytics-service';
import { type Person } from '../../../analytics/people';
import { type TopicSet, type TopicSetPaper } from '../../../analytics/topic-sets';
import type { PaperFilter } from '../../../domain';
import type { AnswerFigure, AskDependencies, Gathered, ResolvedEntity } from '../../ask-types';
import { type AnalyticsPlan } from '../../plan-schema';
import { countryName } from '../../plan-places';

/** A sentence of figures and the papers it counted (which it cites, by title). */
export interface ComputedSentence {
  text: string;
  papers: string[];
}

/** What a plan computed: sentences, or why nothing could be (then the answer abstains and says so). */
export type Outcome = { sentences: ComputedSentence[]; extra?: string; figure?: AnswerFigure } | { refusal: string };

export const LIST = 5;

/** What a plan resolved in the graph, and the other readings it passed over, for the result (see ResolvedEntity). */
export class Found {
  readonly entities: ResolvedEntity[] = [];
  /** Other readings passed over; `said` when the answer's sentences already state it (a person's namesakes). */
  readonly clarifications: Array<{ text: string; said: boolean }> = [];

  topic(set: TopicSet): TopicSet {
    if (!this.entities.some((e) => e.kind === 'topic' && e.text === set.phrase))
      this.entities.push({
        kind: 'topic',
        text: set.phrase,
        // The concept the phrase names, when the graph has one (the largest when it names several).
        id: set.concepts[0]?.id ?? null,
        label: `${set.concepts.length > 0 ? `${set.concepts.map((c) => c.name).join(', ')}: ` : ''}${set.papers.length}${set.truncated ? '+' : ''} papers`,
        how: set.rule,
      });
    return set;
  }

  person(asked: string, person: Person): Person {
    const records = person.ids.length;
    this.entities.push({
      kind: 'person',
      text: asked,
      id: person.ids[0]!,
      label: person.name,
      how: `${records} author record${records === 1 ? '' : 's'} counted as one (${person.ids.join(', ')})`,
    });
    if (person.namesakes.length > 0)
      this.clarifications.push({
        said: true,
        text: `"${asked}" was taken to be ${person.name} (${person.ids[0]}${records > 1 ? ` and ${records - 1} linked record${records > 2 ? 's' : ''}` : ''}, ${person.papers} papers); the name also fits ${quoteList(person.namesakes.map((n) => `${n.name} (${n.id}, ${n.papers} paper${n.papers === 1 ? '' : 's'})`))}, not counted: ask with the full name or the author id to choose another`,
      });
    return person;
  }

  paper(asked: string, paper: { id: string; title?: string | null; year?: number | null }, how: string): void {
    this.entities.push({
      kind: 'paper',
      text: asked,
      id: paper.id,
      label: paper.title ?? paper.id,
      how: `${paper.year ?? 'n.d.'}; ${how}`,
    });
  }

  /** Takes in what another collector found, after what this one holds (for lookups run side by side). */
  add(other: Found): void {
    this.entities.push(...other.entities);
    this.clarifications.push(...other.clarifications);
  }
}

/** A mean count as an answer states it: whole numbers as they are, others to two decimals. */
export const mean = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
export const years = (window: { from: number; to: number }) =>
  window.from === window.to ? String(window.from) : `${window.from}–${window.to}`;

export const quoteList = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

export function filterOf(
  state: Gathered,
  plan: AnalyticsPlan,
  venues: string[] | null,
  institutions: string[] | null,
): PaperFilter {
  return {
    collections: state.options.collections ?? null,
    yearFrom: plan.yearFrom,
    yearTo: plan.yearTo,
    venues,
    institutions,
    countries: plan.country ? [plan.country] : null,
  };
}

/** Where the counted papers come from, as the answer says it: "in Blood", "by authors at …", "by authors in Japan". */
export function scopeOf(venue: string | null, institution: string | null, country: string | null): string | null {
  const parts = [
    venue ? `in ${venue}` : null,
    institution ? `by authors at ${institution}` : null,
    country ? `by authors in ${countryName(country)}` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(', ') : null;
}

export function yearsText(plan: AnalyticsPlan): string {
  const back = plan.lastYears ? ` (the last ${plan.lastYears} years these papers in the graph cover)` : '';
  if (plan.yearFrom !== null && plan.yearTo !== null)
    return plan.yearFrom === plan.yearTo
      ? ` in ${plan.yearFrom}${back}`
      : ` from ${plan.yearFrom} to ${plan.yearTo}${back}`;
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

export function setText(set: TopicSet, plan: AnalyticsPlan, venue: string | null): string {
  return `${set.papers.length}${set.truncated ? '+' : ''} papers in the graph match the topic "${set.phrase}"${yearsText(plan)}${plan.yearFrom !== null ? coverageText(set, plan) : ''}${venue ? ` ${venue}` : ''} (${set.rule})`;
}

/** The years a plan counts over: those asked for, closed by the years the counted papers span. */
export function spanOf(
  papers: readonly { year: number | null }[],
  plan: AnalyticsPlan,
): readonly [number, number] | null {
  const years = papers.map((p) => p.year).filter((y): y is number => y !== null);
  if (years.length === 0) return null;
  return [plan.yearFrom ?? Math.min(...years), plan.yearTo ?? Math.max(...years)];
}

export const ranking = (
  items: ReadonlyArray<{ id: string; label: string | null | undefined; value: number }>,
  years: readonly [number, number] | null = null,
): AnswerFigure => ({
  kind: 'top',
  value: null,
  items: items.map((item) => ({ id: item.id, label: item.label ?? item.id, value: item.value })),
  years,
});

/** A comparison as an answer: each side with its figure, the larger named first; a tie is said as one. */
export function comparison(
  measure: string,
  sides: ReadonlyArray<{ id: string; label: string; value: number; detail: string; papers: string[] }>,
  span: readonly [number, number] | null,
  extra = '',
  /** Opens the verdict: the yes or no to a question that asked for a direction ("No — …"). */
  lead = '',
): Outcome {
  const ordered = [...sides].sort((a, b) => b.value - a.value);
  const [first, second] = ordered;
  const verdict =
    lead +
    (first!.value === second!.value
      ? `${first!.label} and ${second!.label} are level on ${measure} (${first!.value} each)`
      : `${first!.label} has ${/^h-index/.test(measure) ? 'a higher' : 'more'} ${measure} than ${second!.label}: ${first!.value} against ${second!.value}`);
  return {
    sentences: [
      // A sentence opens with a capital, whatever the topic's phrase; a detail already closed keeps its one stop.
      { text: `${verdict.charAt(0).toUpperCase()}${verdict.slice(1)}.`, papers: [] },
      ...sides.map((side) => ({
        text: side.detail.endsWith('.') ? side.detail : `${side.detail}.`,
        papers: side.papers,
      })),
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

export function mostCited(papers: readonly TopicSetPaper[], basis: AnalyticsPlan['citationBasis']): TopicSetPaper[] {
  return [...papers].sort((a, b) =>
    basis === 'global'
      ? b.citedByCount - a.citedByCount || b.internalCitations - a.internalCitations
      : b.internalCitations - a.internalCitations || b.citedByCount - a.citedByCount || a.id.localeCompare(b.id),
  );
}

/**
 * The papers a figure's sentence cites as examples of a set: the most cited, by the plan's basis, of those holding the
 * topic's words or concept (a paper in by meaning alone is counted, but is a weaker example of what the topic is), or
 * of the whole set when none does.
 */
export function examplePapers(
  papers: readonly TopicSetPaper[],
  basis: AnalyticsPlan['citationBasis'],
): TopicSetPaper[] {
  const named = papers.filter((paper) => paper.byWords || paper.byConcept);
  return mostCited(named.length > 0 ? named : papers, basis);
}

/** The two example papers of a set (see examplePapers). */
export function citedExamples(set: { papers: readonly TopicSetPaper[] }, plan: AnalyticsPlan): string[] {
  return examplePapers(set.papers, plan.citationBasis)
    .slice(0, 2)
    .map((p) => p.id);
}

export function groupSentence(
  label: string,
  groups: readonly PaperGroup[],
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
) {
  // Each group is cited by its best example of the topic (see examplePapers), not by whichever paper came first: a
  // journal's paper in the set by meaning alone is a weaker example of what the topic is.
  const rank = new Map<string, number>();
  for (const paper of [...examplePapers(set.papers, plan.citationBasis), ...set.papers])
    if (!rank.has(paper.id)) rank.set(paper.id, rank.size);
  const example = (g: PaperGroup) =>
    [...g.paperIds].sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity))[0];
  return {
    text: `${setText(set, plan, venue)}; counted by ${label}, the most frequent are ${quoteList(groups.map((g) => `${g.name ?? g.id} (${g.count} paper${g.count === 1 ? '' : 's'})`))}.`,
    papers: groups.flatMap((g) => (g.paperIds.length > 0 ? [example(g)!] : [])),
  };
}

export function personText(person: Person): string {
  const namesakes = person.namesakes.length
    ? ` Note: ${person.namesakes.length} other author record${person.namesakes.length > 1 ? 's' : ''} in the graph fit${person.namesakes.length > 1 ? '' : 's'} the name as asked with no ORCID, co-author or (under the same full name) venue or specific concept in common with ${person.name} (${person.namesakes.map((n) => `${n.name}, ${n.id}, ${n.papers} paper${n.papers === 1 ? '' : 's'}`).join('; ')}); ${person.namesakes.length > 1 ? 'they' : 'it'} may be the same person but ${person.namesakes.length > 1 ? 'are' : 'is'} not counted here.`
    : '';
  const byOrcid = person.ids.length - person.linked.reduce((sum, group) => sum + group.ids.length, 0);
  const merged = byOrcid > 1 ? ` (${byOrcid} author records with ORCID ${person.orcid}, counted as one)` : '';
  const linked = person.linked.length
    ? ` Counted in as the same person: ${person.linked.length} other author record${person.linked.length > 1 ? 's' : ''} of a fitting name that share${person.linked.length > 1 ? '' : 's'} co-authors with ${person.name}${person.linked.some((group) => group.by !== 'co-authors') ? ', or the same full name and a venue or a specific concept' : ''} (${person.linked.map((group) => `${group.name}, ${group.ids.join(', ')}, ${group.papers} paper${group.papers === 1 ? '' : 's'}${group.by === 'co-authors' ? '' : `, by ${group.by}`}`).join('; ')}).`
    : '';
  return `${merged}${linked}${namesakes}`;
}

/** The topic's papers as a filter of the science-of-science queries (the set is already filtered by years and venue). */
export const setFilter = (set: TopicSet): PaperFilter => ({ textScores: new Map(set.papers.map((p) => [p.id, 1])) });

export const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** What every plan operation reads: the plan, where its answer is going, and the filter the question's words set. */
export interface PlanContext {
  readonly deps: AskDependencies;
  readonly state: Gathered;
  readonly plan: AnalyticsPlan;
  readonly found: Found;
  /** Collections, years, venue, institution and country the question names. */
  readonly filter: PaperFilter;
  /** The venue named in the question, when there is one. */
  readonly venue: { id: string; name: string } | null;
  /** Where the counted papers come from, as the answer says it (see scopeOf). */
  readonly scope: string | null;
}
