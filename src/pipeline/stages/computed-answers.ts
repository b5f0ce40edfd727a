import { MAX_PAGE } from '../../paging';
import {
  type PaperGroup,
  smoothedGrowth,
  type Person,
  type TopicSet,
  type TopicSetPaper,
} from '../../analytics/analytics-service';
import type { Evidence, PaperFilter } from '../../domain';
import type { VerifiedCitation } from '../../generation/verify';
import { contentTerms, stem, terms } from '../../text';
import type { AnswerFigure, AskDependencies, Gathered, ResolvedEntity, Rewritten } from '../ask-types';
import { EvidencePool } from '../evidence-pool';
import { acronymIn, type AnalyticsPlan, countryName, describePlan } from '../planner';
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

/** What a plan resolved in the graph, and the other readings it passed over, for the result (see ResolvedEntity). */
class Found {
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
}

/** A mean count as an answer states it: whole numbers as they are, others to two decimals. */
const mean = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
const years = (window: { from: number; to: number }) =>
  window.from === window.to ? String(window.from) : `${window.from}–${window.to}`;

const quoteList = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

function filterOf(
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
function scopeOf(venue: string | null, institution: string | null, country: string | null): string | null {
  const parts = [
    venue ? `in ${venue}` : null,
    institution ? `by authors at ${institution}` : null,
    country ? `by authors in ${countryName(country)}` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(', ') : null;
}

function yearsText(plan: AnalyticsPlan): string {
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

function setText(set: TopicSet, plan: AnalyticsPlan, venue: string | null): string {
  return `${set.papers.length}${set.truncated ? '+' : ''} papers in the graph match the topic "${set.phrase}"${yearsText(plan)}${plan.yearFrom !== null ? coverageText(set, plan) : ''}${venue ? ` ${venue}` : ''} (${set.rule})`;
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

/** The two most cited papers of a set, by the plan's basis: the examples a figure's sentence cites. */
function citedExamples(set: { papers: readonly TopicSetPaper[] }, plan: AnalyticsPlan): string[] {
  return mostCited(set.papers, plan.citationBasis)
    .slice(0, 2)
    .map((p) => p.id);
}

function groupSentence(
  label: string,
  groups: readonly PaperGroup[],
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
) {
  return {
    text: `${setText(set, plan, venue)}; counted by ${label}, the most frequent are ${quoteList(groups.map((g) => `${g.name ?? g.id} (${g.count} paper${g.count === 1 ? '' : 's'})`))}.`,
    papers: groups.flatMap((g) => g.paperIds.slice(0, 1)),
  };
}

function personText(person: Person): string {
  const namesakes = person.namesakes.length
    ? ` Note: ${person.namesakes.length} other author record${person.namesakes.length > 1 ? 's' : ''} in the graph fit${person.namesakes.length > 1 ? '' : 's'} the name as asked with no ORCID or co-author in common with ${person.name} (${person.namesakes.map((n) => `${n.name}, ${n.id}, ${n.papers} paper${n.papers === 1 ? '' : 's'}`).join('; ')}); ${person.namesakes.length > 1 ? 'they' : 'it'} may be the same person but ${person.namesakes.length > 1 ? 'are' : 'is'} not counted here.`
    : '';
  const byOrcid = person.ids.length - person.linked.reduce((sum, group) => sum + group.ids.length, 0);
  const merged = byOrcid > 1 ? ` (${byOrcid} author records with ORCID ${person.orcid}, counted as one)` : '';
  const linked = person.linked.length
    ? ` Counted in as the same person: ${person.linked.length} other author record${person.linked.length > 1 ? 's' : ''} of a fitting name that share${person.linked.length > 1 ? '' : 's'} co-authors with ${person.name} (${person.linked.map((group) => `${group.name}, ${group.ids.join(', ')}, ${group.papers} paper${group.papers === 1 ? '' : 's'}`).join('; ')}).`
    : '';
  return `${merged}${linked}${namesakes}`;
}

async function runPlan(deps: AskDependencies, state: Gathered, plan: AnalyticsPlan, found: Found): Promise<Outcome> {
  const { analytics } = deps;
  // A venue named in the question filters the papers (the largest venue of that name).
  let venue: { id: string; name: string } | null = null;
  if (plan.venue) {
    const [match] = await analytics.venuesByName(plan.venue, 1);
    if (!match) return { refusal: `no venue in the graph is named like "${plan.venue}"` };
    venue = match;
    found.entities.push({
      kind: 'venue',
      text: plan.venue,
      id: match.id,
      label: match.name,
      how: 'the largest venue of that name',
    });
  }
  // An institution named in the question filters the papers to those with an author affiliated there (the best match
  // of the name); a country, to those with an author affiliated in it.
  let institution: { id: string; name: string } | null = null;
  if (plan.institution) {
    const [match] = await deps.catalog.institutionsNamed(plan.institution, 1);
    if (!match) return { refusal: `no institution in the graph is named like "${plan.institution}"` };
    institution = { id: match.institution.id, name: match.institution.name ?? match.institution.id };
    found.entities.push({
      kind: 'institution',
      text: plan.institution,
      id: institution.id,
      label: institution.name,
      how: 'the best match of the name',
    });
  }
  if (plan.country)
    found.entities.push({
      kind: 'country',
      text: plan.country,
      id: plan.country,
      label: countryName(plan.country),
      how: 'ISO 3166 code: papers with an author affiliated there',
    });
  const filter = filterOf(state, plan, venue ? [venue.id] : null, institution ? [institution.id] : null);
  const scope = scopeOf(venue?.name ?? null, institution?.name ?? null, plan.country);

  if (plan.operation === 'compare_people') {
    const names = [plan.person, plan.second].filter((name): name is string => !!name);
    const people = await Promise.all(names.map((name) => analytics.resolvePerson(name)));
    const missing = names.filter((_, i) => !people[i]);
    if (names.length < 2 || missing.length > 0)
      return { refusal: `no identified author in the graph is named ${missing.map((n) => `"${n}"`).join(' or ')}` };
    people.forEach((person, i) => found.person(names[i]!, person!));
    const measured = await Promise.all(people.map((person) => analytics.personMetrics(person!.ids)));
    const metric = /h[- ]?index/i.test(state.question)
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
    const sets = await Promise.all(
      phrases.map(async (phrase) => found.topic(await analytics.topicSet(phrase, filter))),
    );
    const empty = sets.filter((set) => set.papers.length === 0).map((set) => `"${set.phrase}"`);
    if (empty.length === 2) return { refusal: `no paper in the graph matches the topics ${empty.join(' or ')}` };
    return comparison(
      `papers${yearsText(plan)}`,
      sets.map((set) => ({
        id: set.phrase,
        label: set.phrase,
        value: set.papers.length,
        detail: setText(set, plan, venue?.name ?? null),
        papers: citedExamples(set, plan),
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
    sets.forEach((set) => found.topic(set));
    return comparison(
      `papers on "${plan.topic}"`,
      sets.map((set, i) => ({
        id: `[${windows[i]!.from}, ${windows[i]!.to}]`,
        label: years(windows[i]!),
        value: set.papers.length,
        detail: `${years(windows[i]!)}: ${set.papers.length}${set.truncated ? '+' : ''} papers (${(set.papers.length / (windows[i]!.to - windows[i]!.from + 1)).toFixed(1)} a year)`,
        papers: citedExamples(set, plan),
      })),
      [Math.min(...windows.map((w) => w.from)), Math.max(...windows.map((w) => w.to))],
      ` The papers on the topic are those by its rule: ${sets[0]!.rule.replace(/: \d+ by words.*$/, '')}.`,
    );
  }

  if (plan.operation === 'citation_path') return citationPath(deps, state, plan, found);

  if (plan.operation === 'compare_topics_trend') {
    const phrases = [plan.topic, plan.second].filter((phrase): phrase is string => !!phrase);
    if (phrases.length < 2) return { refusal: 'the question does not name two topics to compare' };
    const sets = await Promise.all(
      phrases.map(async (phrase) => found.topic(await analytics.topicSet(phrase, filter))),
    );
    const empty = sets.filter((set) => set.papers.length === 0).map((set) => `"${set.phrase}"`);
    if (empty.length > 0) return { refusal: `no paper in the graph matches the topic ${empty.join(' or ')}` };
    return growthComparison(deps, sets, plan);
  }

  if (plan.operation === 'derivative_works' || plan.operation === 'prior_works') {
    const planned = await planPaper(deps, state, plan, filter, found);
    if ('refusal' in planned) return planned;
    const { paper } = planned;
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
    const step = plan.person ? null : await firstStepPerson(deps, plan, filter, found);
    if (step && 'refusal' in step) return step;
    const name = step?.name ?? plan.person;
    const person = name ? await analytics.resolvePerson(name) : null;
    if (!person) return { refusal: `no identified author in the graph is named "${name ?? ''}"` };
    found.person(name!, person);
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
          text: `Counted over ${person.name}'s ${metrics.works} papers in the graph, the most frequent co-authors are ${quoteList(coauthors.map((c) => `${c.name ?? c.id} (${c.count} joint papers${c.ids.length > 1 ? `; ${c.ids.length} author records of this name, counted as one` : ''}${c.possiblySame.length ? `; possibly the same person as ${c.possiblySame.join(', ')}` : ''})`))}.${personText(person)}`,
          papers: [...new Set(coauthors.flatMap((c) => c.paperIds.slice(0, 1)))],
        },
      ],
      figure: ranking(coauthors.map((c) => ({ id: c.id, label: c.name, value: c.count }))),
    };
  }

  if (plan.operation === 'related_papers') {
    const planned = await planPaper(deps, state, plan, filter, found);
    if ('refusal' in planned) return planned;
    const { paper, step } = planned;
    // Deeper than the list: papers outside the graph known only by their id (stubs never labelled) are no answer a
    // reader can use, so the list is of papers with a title, and the answer says which untitled ones ranked higher.
    const page = { skip: 0, limit: LIST * 4 };
    const ranked =
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
          : (await analytics.paperRelated(paper.id, LIST * 4)).map((r) => ({
              paper: r.paper,
              detail: `co-cited ${r.cocited}, ${r.coupled} shared references${r.direct ? ', direct citation' : ''}`,
            }));
    const rows = ranked.filter((r) => r.paper.title).slice(0, LIST);
    const last = rows.length > 0 ? ranked.indexOf(rows[rows.length - 1]!) : ranked.length;
    const untitled = ranked.slice(0, last).filter((r) => !r.paper.title);
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
          text: `The papers ${how} "${paper.title ?? paper.id}" are ${quoteList(rows.map((r) => `"${r.paper.title ?? r.paper.id}" (${r.detail})`))}.${untitled.length > 0 ? ` Ranked among them, ${untitled.length} cited paper${untitled.length > 1 ? 's' : ''} outside the graph known only by ${untitled.length > 1 ? 'their ids' : 'its id'} (${untitled.map((r) => `${r.paper.id}, ${r.detail}`).join('; ')}).` : ''}`,
          papers: [paper.id, ...rows.map((r) => r.paper.id)],
        },
      ],
      figure: ranking(rows.map((r, index) => ({ id: r.paper.id, label: r.paper.title, value: rows.length - index }))),
    };
  }

  // Topic operations: every paper on the topic, not the top hits of a search.
  if (!plan.topic) return { refusal: 'the question names no topic to count papers on' };
  const set = found.topic(await analytics.topicSet(plan.topic, filter));
  if (set.papers.length === 0) {
    return { refusal: `no paper in the graph matches the topic "${plan.topic}"${yearsText(plan)} (${set.rule})` };
  }
  const ids = set.papers.map((p) => p.id);
  const venueName = scope;
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
      const cited = plan.rankBy === 'citations';
      const rows = await analytics.authorsOfPapers(ids, LIST * 4, cited ? plan.citationBasis : 'papers');
      const people = await analytics.peopleOf(
        rows.map((r) => ({
          ...r,
          papers: r.count,
          count: !cited ? r.count : plan.citationBasis === 'global' ? r.globalCitations : r.internalCitations,
        })),
      );
      if (people.length === 0) return { refusal: `the papers on "${plan.topic}" have no identified authors` };
      const top = people.slice(0, LIST);
      const unit = !cited ? 'papers' : plan.citationBasis === 'global' ? 'global citations' : 'citations in the graph';
      const ranked = cited
        ? `ranked by the ${unit} of their papers among these, the most cited authors are`
        : 'counted by author, the authors with the most of these papers are';
      return {
        sentences: [
          {
            text: `${setText(set, plan, venueName)}; ${ranked} ${quoteList(top.map((p) => `${p.name ?? p.id} (${p.count} ${unit}${p.ids.length > 1 ? `, ${p.ids.length} author records taken as one person` : ''}${p.possiblySame.length ? `; possibly the same person as ${p.possiblySame.join(', ')}` : ''})`))}.`,
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
    case 'top_countries': {
      const groups = await analytics.countriesOfPapers(ids, LIST);
      if (groups.length === 0)
        return { refusal: `the authors of the papers on "${plan.topic}" have no institution with a country recorded` };
      const named = groups.map((g) => ({ ...g, name: `${countryName(g.id)} (${g.id})` }));
      return {
        sentences: [groupSentence('the countries of their authors’ institutions', named, set, plan, venueName)],
        figure: ranking(
          named.map((g) => ({ id: g.id, label: g.name, value: g.count })),
          spanOf(set.papers, plan),
        ),
      };
    }
    case 'lotka':
      return lotka(deps, set, plan, venueName);
    case 'bradford':
      return bradford(deps, set, plan, venueName);
    case 'disruptive_papers':
      return disruptive(deps, set, plan, venueName);
    case 'sleeping_beauties':
      return sleepingBeauties(deps, set, plan, venueName);
    case 'main_path':
      return mainPath(deps, set, plan, venueName);
    case 'research_fronts':
      return researchFronts(deps, set, plan, venueName);
    case 'topic_bursts':
      return bursts(deps, set, plan, venueName);
    case 'normalised_impact':
      return normalisedImpact(deps, set, plan, venueName);
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

/** The topic's papers as a filter of the science-of-science queries (the set is already filtered by years and venue). */
const setFilter = (set: TopicSet): PaperFilter => ({ textScores: new Map(set.papers.map((p) => [p.id, 1])) });

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** The fewest papers either half of a window must hold for a growth ratio to be stated. */
const MIN_GROWTH_PAPERS = 5;

/**
 * Which of two topics grew faster: over the window asked, else the years either topic's papers cover, the papers of the
 * second half over those of the first; a side with fewer than MIN_GROWTH_PAPERS papers in its first half gets no ratio.
 */
async function growthComparison(
  deps: AskDependencies,
  sets: readonly TopicSet[],
  plan: AnalyticsPlan,
): Promise<Outcome> {
  const coverage = await deps.analytics.coverageYears();
  const spans = sets.map((set) => spanOf(set.papers, plan));
  if (spans.some((span) => !span) || !coverage)
    return { refusal: 'the papers on these topics have no publication years' };
  // One window for both: the years asked, else those either topic's papers cover, up to the graph's last year.
  const from = plan.yearFrom ?? Math.min(...spans.map((span) => span![0]));
  const to = Math.min(plan.yearTo ?? Math.max(...spans.map((span) => span![1])), coverage.lastYear);
  if (to - from < 1)
    return { refusal: `the papers on these topics span less than two years, too few to compare growth` };
  const mid = Math.floor((from + to) / 2);
  const sides = sets.map((set) => {
    const inYears = (lo: number, hi: number) =>
      set.papers.filter((p) => p.year !== null && p.year >= lo && p.year <= hi).length;
    const early = inYears(from, mid);
    const late = inYears(mid + 1, to);
    const ratio = early >= MIN_GROWTH_PAPERS ? late / early : null;
    return { set, early, late, ratio };
  });
  const rated = sides.filter((side) => side.ratio !== null);
  if (rated.length < 2)
    return {
      refusal: `too few papers to compare growth: ${sides.map((s) => `"${s.set.phrase}" has ${s.early} in ${years({ from, to: mid })}`).join(', ')} (at least ${MIN_GROWTH_PAPERS} are needed in the first half)`,
    };
  return comparison(
    `growth (papers in ${years({ from: mid + 1, to })} over papers in ${years({ from, to: mid })})`,
    sides.map((side) => ({
      id: side.set.phrase,
      label: side.set.phrase,
      value: Math.round(side.ratio! * 100) / 100,
      detail: `"${side.set.phrase}": ${side.early} papers in ${years({ from, to: mid })}, ${side.late} in ${years({ from: mid + 1, to })}, a ratio of ${side.ratio!.toFixed(2)} (${side.set.rule})`,
      papers: citedExamples(side.set, plan),
    })),
    [from, to],
    ` Both are measured over ${years({ from, to })}, ${plan.yearFrom !== null || plan.yearTo !== null ? 'the years asked' : 'the years their papers cover'}${to === coverage.lastYear && plan.yearTo === null ? ` (the graph's papers end in ${to})` : ''}; a side with fewer than ${MIN_GROWTH_PAPERS} papers in the first half gets no ratio.`,
  );
}

/** Lotka's law over the authors of the topic's papers: the share with one paper and the fitted exponent. */
async function lotka(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const fit = await deps.science.lotka(setFilter(set));
  if (fit.authors === 0) return { refusal: `the papers on "${set.phrase}" have no identified authors` };
  const single = fit.distribution.find((d) => d.papers === 1)?.authors ?? 0;
  const share = single / fit.authors;
  const classes = fit.distribution
    .slice(0, 4)
    .map((d) => `${d.authors} with ${d.papers} paper${d.papers === 1 ? '' : 's'}`);
  const verdict =
    fit.exponent === null
      ? 'With a single productivity class Lotka’s law cannot be fitted.'
      : `Fitted by least squares on the logarithms (Pao 1985), the exponent is n = ${fit.exponent.toFixed(2)}; Lotka’s inverse square law has n = 2 (about 60.8% of authors with one paper), so ${Math.abs(fit.exponent - 2) <= 0.5 ? 'the authorship follows it roughly' : fit.exponent > 2 ? 'authorship is more concentrated among one-paper authors than the law expects (a steeper fall)' : 'prolific authors are more common than the law expects (a flatter fall)'}.`;
  const top = mostCited(set.papers, plan.citationBasis).slice(0, 2);
  return {
    sentences: [
      {
        text: `${setText(set, plan, venue)}; their ${fit.authors} identified authors (records sharing an ORCID counted as one) are ${classes.join(', ')}${fit.distribution.length > 4 ? ' and so on' : ''}: ${percent(share)} wrote one of these papers.`,
        papers: top.map((p) => p.id),
      },
      { text: verdict, papers: [] },
    ],
    figure: {
      kind: 'share',
      value: Math.round(share * 1000) / 1000,
      items: [
        { id: 'authors', label: 'identified authors', value: fit.authors },
        ...(fit.exponent !== null ? [{ id: 'exponent', label: 'Lotka exponent n', value: fit.exponent }] : []),
        ...(fit.constant !== null ? [{ id: 'constant', label: 'fitted share C', value: fit.constant }] : []),
      ],
      years: spanOf(set.papers, plan),
    },
  };
}

/** Bradford's zones of the topic's venues: the core journals carrying the first third of the papers. */
async function bradford(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const zones = await deps.science.bradford(setFilter(set));
  const core = zones.zones[0];
  if (!core || core.venues.length === 0) return { refusal: `the papers on "${set.phrase}" have no venue recorded` };
  const withVenue = zones.zones.reduce((sum, zone) => sum + zone.papers, 0);
  const [k1, k2] = zones.multipliers;
  const multipliers =
    k1 !== null && k2 !== null
      ? ` The zones hold ${zones.zones.map((z) => z.venues.length).join(', ')} journals (multipliers ${k1.toFixed(1)} and ${k2.toFixed(1)}; Bradford’s law expects them about equal).`
      : '';
  const listed = core.venues.slice(0, 8);
  return {
    sentences: [
      {
        text: `${setText(set, plan, venue)}; ${withVenue} of them have a venue${zones.papersWithoutVenue ? ` (${zones.papersWithoutVenue} have none)` : ''}. By Bradford’s law the core — the fewest journals carrying a third of these papers — is ${core.venues.length} journal${core.venues.length === 1 ? '' : 's'} with ${core.papers} papers: ${quoteList(listed.map((v) => `${v.venue.name ?? v.venue.id} (${v.papers})`))}${core.venues.length > listed.length ? ` and ${core.venues.length - listed.length} more` : ''}.${multipliers}`,
        papers: citedExamples(set, plan),
      },
    ],
    figure: {
      kind: 'value',
      value: core.venues.length,
      items: core.venues.map((v) => ({ id: v.venue.id, label: v.venue.name ?? v.venue.id, value: v.papers })),
      years: spanOf(set.papers, plan),
    },
  };
}

/** The fewest citing papers in the graph for a paper's CD index to be ranked. */
const MIN_CD_CITING = 5;

/** The topic's most disruptive papers by the CD index, over those enough papers in the graph cite. */
async function disruptive(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const rows = await deps.science.disruptionOfPapers(
    set.papers.map((p) => p.id),
    MIN_CD_CITING,
  );
  if (rows.length === 0)
    return {
      refusal: `no paper on "${set.phrase}" is cited by ${MIN_CD_CITING} or more papers in the graph, so none has a CD index to rank`,
    };
  const top = rows.slice(0, LIST);
  const signed = (cd: number) => (cd > 0 ? `+${cd.toFixed(2)}` : cd.toFixed(2));
  return {
    sentences: [
      {
        text: `${setText(set, plan, venue)}; of the ${rows.length} cited by at least ${MIN_CD_CITING} papers in the graph, the most disruptive by the CD index (Funk and Owen-Smith 2017: +1 when later work cites a paper without its references, −1 when it cites them together) are ${quoteList(top.map((r) => `"${r.title ?? r.paperId}" (${r.year ?? 'n.d.'}; CD ${signed(r.cd!)}: ${r.focalOnly} papers cite it alone, ${r.both} with its references, ${r.referencesOnly} only its references${r.references === 0 ? '; it cites no paper the graph holds, so nothing can consolidate it' : ''})`))}.`,
        papers: top.map((r) => r.paperId),
      },
    ],
    figure: ranking(
      top.map((r) => ({ id: r.paperId, label: r.title, value: Math.round(r.cd! * 1000) / 1000 })),
      spanOf(set.papers, plan),
    ),
  };
}

/** The fewest citations inside the graph for a paper to be ranked as a sleeping beauty. */
const MIN_BEAUTY_CITATIONS = 5;

/** The topic's sleeping beauties (Ke et al. 2015): papers cited little for years, then much, by beauty coefficient. */
async function sleepingBeauties(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const basis = plan.citationBasis === 'global' ? 'GLOBAL_CITATIONS' : 'INTERNAL_CITATIONS';
  const beauties = await deps.science.sleepingBeauties(setFilter(set), basis, LIST, MIN_BEAUTY_CITATIONS);
  if (beauties.length === 0)
    return {
      refusal: `no paper on "${set.phrase}" is cited ${MIN_BEAUTY_CITATIONS} or more times inside the graph, so none can be ranked as a sleeping beauty`,
    };
  const titles = new Map(set.papers.map((p) => [p.id, p.title ?? p.id]));
  const citations =
    plan.citationBasis === 'global'
      ? 'global citations per year (OpenAlex)'
      : 'citations per year from papers in the graph';
  return {
    sentences: [
      {
        text: `${setText(set, plan, venue)}; ranked by the beauty coefficient B over their ${citations} (Ke et al. 2015: large when a paper is cited little for years and then much), the deepest sleepers are ${quoteList(beauties.map((b) => `"${titles.get(b.paperId) ?? b.paperId}" (${b.year}; B = ${b.coefficient.toFixed(1)}, awakened in ${b.awakeningYear}, most cited in ${b.peakYear})`))}.`,
        papers: beauties.map((b) => b.paperId),
      },
    ],
    figure: ranking(
      beauties.map((b) => ({
        id: b.paperId,
        label: titles.get(b.paperId),
        value: Math.round(b.coefficient * 100) / 100,
      })),
      spanOf(set.papers, plan),
    ),
  };
}

/** The most papers of a topic the main path and the research fronts are computed over (the most cited). */
const NETWORK_PAPERS = 1000;

/** The main path of citations among the topic's papers (Hummon and Doreian 1989; search path count). */
async function mainPath(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const path = await deps.science.mainPath(setFilter(set), NETWORK_PAPERS);
  if (path.papers.length < 2)
    return { refusal: `the papers on "${set.phrase}" do not cite each other, so there is no main path through them` };
  const steps = path.papers.map((p) => `"${p.title ?? p.id}" (${p.year ?? 'n.d.'})`);
  return {
    sentences: [
      {
        text: `${setText(set, plan, venue)}; along the ${path.citations} citations among ${path.nodes === set.papers.length ? 'them' : `the ${path.nodes} most cited of them`}, the main path by search path count (Hummon and Doreian 1989; the source-to-sink chain carrying the most paths) runs through ${path.papers.length} papers: ${steps.join(' → ')}.`,
        papers: path.papers.map((p) => p.id),
      },
    ],
    figure: ranking(
      path.papers.map((p, i) => ({ id: p.id, label: p.title, value: i + 1 })),
      spanOf(set.papers, plan),
    ),
  };
}

/** The topic's research fronts: clusters of its papers by shared references (bibliographic coupling, Louvain). */
async function researchFronts(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const clustering = await deps.science.clusters(setFilter(set), 'COUPLING', {
    maxNodes: NETWORK_PAPERS,
    minWeight: 1,
    resolution: 1,
  });
  const fronts = clustering.clusters.filter((c) => c.size >= 2).slice(0, LIST);
  if (fronts.length === 0)
    return { refusal: `no two papers on "${set.phrase}" share a reference, so they form no research fronts` };
  const label = (c: (typeof fronts)[number]) =>
    c.terms.length ? c.terms.slice(0, 3).join(', ') : (c.topics[0]?.topic.name ?? `cluster ${c.cluster}`);
  return {
    sentences: [
      {
        text: `${setText(set, plan, venue)}; grouped by shared references (bibliographic coupling of ${clustering.nodes} papers, Louvain communities, modularity ${clustering.modularity.toFixed(2)}), the largest research fronts are ${quoteList(fronts.map((c) => `${label(c)} (${c.size} papers, led by "${c.papers[0]?.title ?? c.members[0]}")`))}.`,
        papers: fronts.map((c) => c.members[0]!),
      },
    ],
    figure: ranking(
      fronts.map((c) => ({ id: `cluster-${c.cluster}`, label: label(c), value: c.size })),
      spanOf(set.papers, plan),
    ),
  };
}

/** Subtopics of the topic's papers that burst (Kleinberg 2003): years in which their share ran high. */
async function bursts(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const window = yearWindow(set, plan, new Date().getFullYear() - 1);
  if ('refusal' in window) return window;
  if (window.to - window.from < 2)
    return { refusal: `the papers on "${set.phrase}" span too few years to find bursts in` };
  const found = (
    await deps.science.topicBursts(setFilter(set), window.from, Math.min(window.to, window.from + 300), {
      topics: 30,
      // Level 2 and deeper: "Pathology" or "MEDLINE" are no subtopics of a literature.
      minLevel: 2,
      s: 2,
      gamma: 1,
    })
  ).filter((t) => t.bursts.length > 0 && !sameWords(t.topic.name ?? '', set.phrase));
  const ranked = found
    .map((t) => ({ ...t, strongest: [...t.bursts].sort((a, b) => b.strength - a.strength)[0]! }))
    .sort((a, b) => b.strongest.strength - a.strongest.strength)
    .slice(0, LIST);
  const span = [window.from, window.to] as const;
  if (ranked.length === 0)
    return {
      sentences: [
        {
          text: `${setText(set, plan, venue)}; over ${years(window)} none of their 30 most frequent specific subtopics (concepts of level 2 and deeper) bursts (Kleinberg 2003: a run of years in which a subtopic's share of the papers runs well above its usual rate).`,
          papers: citedExamples(set, plan),
        },
      ],
      figure: { kind: 'top', value: null, items: [], years: span },
    };
  return {
    sentences: [
      {
        text: `${setText(set, plan, venue)}; over ${years(window)} the subtopics whose share of these papers burst (Kleinberg 2003, s = 2, γ = 1) are ${quoteList(ranked.map((t) => `${t.topic.name ?? t.topic.id} (${years({ from: t.strongest.start, to: t.strongest.end })}, strength ${t.strongest.strength.toFixed(1)}; ${t.papers} papers)`))}.`,
        papers: citedExamples(set, plan),
      },
    ],
    figure: ranking(
      ranked.map((t) => ({ id: t.topic.id, label: t.topic.name, value: Math.round(t.strongest.strength * 10) / 10 })),
      span,
    ),
  };
}

/** Whether two phrases hold the same words (a subtopic that is the topic itself is no burst within it). */
function sameWords(a: string, b: string): boolean {
  const words = (text: string) => [...new Set(contentTerms(text).map(stem))].sort().join(' ');
  return words(a) === words(b);
}

/** The fewest papers of a year and field for their mean citations to be a paper's expected citations. */
const MIN_PEERS = 10;

/** The topic's papers with the highest field-normalised impact: internal citations over their year and field's mean. */
async function normalisedImpact(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const candidates = mostCited(set.papers, 'internal').slice(0, 1000);
  const impacts = await deps.science.normalisedImpact(candidates.map((p) => p.id));
  const ranked = [...impacts.values()]
    // An expectation from fewer than MIN_PEERS papers of the year and field is too unsteady to divide by.
    .filter((i): i is typeof i & { value: number } => i.value !== null && i.citations > 0 && i.peers >= MIN_PEERS)
    .sort((a, b) => b.value - a.value || b.citations - a.citations || a.id.localeCompare(b.id))
    .slice(0, LIST);
  if (ranked.length === 0)
    return {
      refusal: `no paper on "${set.phrase}" is cited inside the graph and has ${MIN_PEERS} or more papers of its year and field to compare with`,
    };
  const titles = new Map(set.papers.map((p) => [p.id, p.title ?? p.id]));
  return {
    sentences: [
      {
        text: `${setText(set, plan, venue)}; ranked by field-normalised impact (citations from papers in the graph over the mean of the graph's papers of the same year and field, where there are at least ${MIN_PEERS} of them), the highest are ${quoteList(ranked.map((i) => `"${titles.get(i.id) ?? i.id}" (${i.year}, ${i.field.name ?? i.field.id}: ${i.citations} citations, ${i.value.toFixed(1)} times the ${i.expected.toFixed(1)} expected)`))}.`,
        papers: ranked.map((i) => i.id),
      },
    ],
    figure: ranking(
      ranked.map((i) => ({ id: i.id, label: titles.get(i.id), value: Math.round(i.value * 100) / 100 })),
      spanOf(set.papers, plan),
    ),
  };
}

/** The longest citation chain looked for between two papers. */
const MAX_PATH_LINKS = 6;

/** The shortest chain of citations (either way along each link) between the two papers a question names. */
async function citationPath(
  deps: AskDependencies,
  state: Gathered,
  plan: AnalyticsPlan,
  found: Found,
): Promise<Outcome> {
  const references = [plan.paper, plan.second].filter((r): r is string => !!r);
  if (references.length < 2) return { refusal: 'the question does not name two papers to connect' };
  // One after the other, so the entities keep the question's order.
  const papers: Array<Awaited<ReturnType<typeof resolvePaper>>> = [];
  for (const reference of references) papers.push(await resolvePaper(deps, state, reference, found));
  const missing = references.filter((_, i) => !papers[i]);
  if (missing.length > 0)
    return { refusal: `no paper in the graph matches ${missing.map((m) => `"${m.slice(0, 120)}"`).join(' or ')}` };
  const [from, to] = papers as [NonNullable<(typeof papers)[0]>, NonNullable<(typeof papers)[0]>];
  const label = (p: { id: string; title?: string | null; year?: number | null }) =>
    `"${p.title ?? p.id}" (${p.year ?? 'n.d.'})`;
  if (from.id === to.id) return { refusal: `both descriptions match the same paper, ${label(from)}` };
  const path = await deps.science.citationPath(from.id, to.id, false, MAX_PATH_LINKS);
  if (!path)
    return {
      sentences: [
        {
          text: `No chain of at most ${MAX_PATH_LINKS} citations in the graph links ${label(from)} and ${label(to)}, following each citation either way.`,
          papers: [from.id, to.id],
        },
      ],
      figure: { kind: 'value', value: null, items: [], years: null },
    };
  const links = path.papers.slice(0, -1).map((paper, i) => {
    const next = path.papers[i + 1]!;
    return path.forward[i] ? `${label(paper)} cites ${label(next)}` : `${label(paper)} is cited by ${label(next)}`;
  });
  const count = path.papers.length - 1;
  return {
    sentences: [
      {
        text: `${label(from)} and ${label(to)} are linked by a chain of ${count} citation${count === 1 ? '' : 's'}: ${links.join('; ')}.`,
        papers: path.papers.map((p) => p.id),
      },
    ],
    figure: {
      kind: 'value',
      value: count,
      items: path.papers.map((p, i) => ({ id: p.id, label: p.title ?? p.id, value: i })),
      years: null,
    },
  };
}

/** The paper a question names: by DOI, or the best search hit when most of the quoted title's words are its title's. */
/** The first step of a plan reaching a person through a ranking: the topic's most prolific or most cited author. */
async function firstStepPerson(
  deps: AskDependencies,
  plan: AnalyticsPlan,
  filter: PaperFilter,
  found: Found,
): Promise<{ name: string; sentence: ComputedSentence } | { refusal: string } | null> {
  if (plan.firstStep !== 'most_prolific_author' && plan.firstStep !== 'most_cited_author') return null;
  if (!plan.topic) return { refusal: 'the question names no topic to find its author on' };
  const set = found.topic(await deps.analytics.topicSet(plan.topic, filter));
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
  // Records of one person are one person here too: their counts add up before the first is taken.
  const [top] = await deps.analytics.peopleOf(rows.map((row) => ({ ...row, count: value(row) })));
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
  found: Found,
): Promise<
  | { paper: { id: string; title?: string | null; year?: number | null }; step: { sentence: ComputedSentence } | null }
  | { refusal: string }
> {
  const step = plan.paper ? null : await firstStepPaper(deps, plan, filter, found);
  if (step && 'refusal' in step) return step;
  if (step) found.paper(`the most cited paper on "${plan.topic}"`, step.paper, 'the first step');
  const paper = step ? step.paper : await resolvePaper(deps, state, plan.paper ?? '', found);
  if (!paper) return { refusal: `no paper in the graph matches "${(plan.paper ?? '').slice(0, 120)}"` };
  return { paper, step };
}

/** The first step of a plan reaching a paper through a ranking: the topic's most cited paper. */
async function firstStepPaper(
  deps: AskDependencies,
  plan: AnalyticsPlan,
  filter: PaperFilter,
  found: Found,
): Promise<
  | { paper: { id: string; title?: string | null; year?: number | null }; sentence: ComputedSentence }
  | { refusal: string }
  | null
> {
  if (plan.firstStep !== 'most_cited_paper') return null;
  if (!plan.topic) return { refusal: 'the question names no topic to find its most cited paper on' };
  const set = found.topic(await deps.analytics.topicSet(plan.topic, filter));
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

/** The paper a reference names: by DOI, by acronym in a title or abstract, by its title, or by a description. */
async function resolvePaper(deps: AskDependencies, state: Gathered, reference: string, found: Found) {
  if (reference.trim() === '') return null;
  if (/^10\.\d{4,9}\//.test(reference)) {
    const paper = await deps.catalog.paperByDoi(reference);
    if (paper) found.paper(reference, paper, 'by DOI');
    return paper;
  }
  if (/^[A-Z][A-Z0-9-]+(?: \d{1,2})?$/.test(reference)) {
    const id = await deps.analytics.paperNamed(reference, { collections: state.options.collections ?? null });
    const paper = id ? ((await deps.catalog.papersByIds([id]))[0] ?? null) : null;
    if (paper) found.paper(reference, paper, 'the name in its title or abstract');
    return paper;
  }
  // A reference of no searchable words (a name of stopwords, punctuation) names no paper.
  if (contentTerms(reference).length === 0) return null;
  // A study named by its acronym and described ("HERS trial of estrogen plus progestin") is found by its description.
  if (acronymIn(reference)) return describedPaper(deps, state, reference, found);
  const response = await deps.search.search(
    state.ctx,
    reference,
    1,
    { collections: state.options.collections ?? null },
    { passages: 0 },
  );
  const hit = response.results[0]?.paper;
  if (hit?.title) {
    const words = new Set(terms(reference));
    const title = new Set(terms(hit.title));
    const shared = [...words].filter((w) => title.has(w)).length;
    if (shared / Math.max(1, words.size) >= 0.8) {
      found.paper(reference, hit, 'by its title');
      return hit;
    }
  }
  return describedPaper(deps, state, reference, found);
}

/** The longest run of consecutive words of `phrase` that occurs, in order and unbroken, in `text`. */
export function longestRun(phrase: readonly string[], text: readonly string[]): number {
  let best = 0;
  for (let i = 0; i < phrase.length; i += 1)
    for (let j = 0; j < text.length; j += 1) {
      let k = 0;
      while (i + k < phrase.length && j + k < text.length && phrase[i + k] === text[j + k]) k += 1;
      if (k > best) best = k;
    }
  return best;
}

/** Words that say what kind of work a description names, not what it is about. */
const KINDS = new Set(
  'the a an trial trials study studies review reviews paper papers article articles report reports work analysis randomised randomized controlled landmark seminal original famous well known large published first earliest initial pioneering'.split(
    ' ',
  ),
);

/**
 * A paper the question describes rather than titles ("the 1998 gabapentin trial for painful neuropathy"): the best
 * search hit (in the year the description names, when it names one) whose title and abstract hold at least two thirds
 * of the description's subject words; null when none does.
 */
async function describedPaper(deps: AskDependencies, state: Gathered, reference: string, found: Found) {
  const year = /\b((?:19|20)\d{2})\b/.exec(reference)?.[1];
  const described = reference.replace(/\b(?:19|20)\d{2}\b/g, ' ');
  const words = [...new Set(contentTerms(described).filter((w) => !KINDS.has(w)))].map(stem);
  if (words.length === 0) return null;
  // "The first …" is the earliest of the papers that fit, so more of them are read.
  const earliest = /\b(?:first|earliest|initial|original|pioneering)\b/i.test(described);
  const response = await deps.search.search(
    state.ctx,
    described,
    earliest ? 10 : 5,
    {
      collections: state.options.collections ?? null,
      yearFrom: year ? Number(year) : null,
      yearTo: year ? Number(year) : null,
    },
    { passages: 0 },
  );
  const fitting = response.results
    .map((r) => r.paper)
    .filter((paper) => {
      if (paper.stub) return false;
      const text = new Set(contentTerms(`${paper.title ?? ''} ${paper.abstract ?? ''}`).map(stem));
      return words.filter((w) => text.has(w)).length / words.length >= 2 / 3;
    });
  // Of papers that fit alike, the one whose title holds the longest run of the description's words in its order
  // ("trial of estrogen plus progestin") is the study described; then the search's order. "The first …" asks for
  // the earliest of the papers that fit, then the same order.
  const asked = terms(described);
  const [paper, other] = fitting
    .map((p, rank) => ({ p, rank, run: longestRun(asked, terms(p.title ?? '')) }))
    .sort((a, b) =>
      earliest
        ? (a.p.year ?? 9999) - (b.p.year ?? 9999) || b.run - a.run || a.rank - b.rank
        : b.run - a.run || a.rank - b.rank,
    )
    .map((entry) => entry.p);
  if (!paper) return null;
  found.paper(reference, paper, `the best search hit${year ? ` of ${year}` : ''} holding the description's words`);
  if (other)
    found.clarifications.push({
      said: false,
      text: `"${reference}" was taken to be "${paper.title ?? paper.id}" (${paper.id}); it also fits "${other.title ?? other.id}" (${other.id}, ${other.year ?? 'n.d.'}): name the paper by its title or DOI to choose another`,
    });
  return paper;
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
      text: `${set.papers.length}${set.truncated ? '+' : ''} papers in the graph match the topic "${set.phrase}"${venue ? ` ${venue}` : ''} (${set.rule}); ${total} of them were published from ${from} to ${to}, peaking in ${peak.year} with ${peak.count} papers.`,
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
        text: `Among the ${inWindow.length} papers on "${set.phrase}"${venue ? ` ${venue}` : ''} from ${from} to ${to} (${set.rule}), the topics that grew most from ${from}–${split - 1} to ${split}–${to} are ${quoteList(ranked.map((t) => `${t.name} (${t.early} → ${t.late} papers)`))}.`,
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
 * Bibliometric and trend questions answered by a typed plan (src/pipeline/planner.ts) executed with the analytics
 * service: counts over every paper on a topic, people merged by ORCID, papers resolved by DOI or title. When the plan
 * cannot be carried out (no such person, topic or paper) the answer abstains and says why.
 */
/**
 * A window counted back ("in the last decade", "in recent years") as years: it ends at the last year the topic's
 * papers cover (of both topics, for a comparison; the graph's, without a topic), never past the graph's own last year.
 */
async function countBack(deps: AskDependencies, state: Gathered, plan: AnalyticsPlan): Promise<AnalyticsPlan> {
  if (!plan.lastYears || plan.yearFrom !== null || plan.yearTo !== null) return plan;
  const coverage = await deps.analytics.coverageYears();
  if (!coverage) return plan;
  const phrases = [plan.topic, plan.operation.startsWith('compare_topics') ? plan.second : null].filter(
    (phrase): phrase is string => !!phrase,
  );
  const filter = filterOf(state, plan, null, null);
  const years = (await Promise.all(phrases.map((phrase) => deps.analytics.topicSet(phrase, filter))))
    .flatMap((set) => set.papers.map((paper) => paper.year))
    .filter((year): year is number => year !== null && year <= coverage.lastYear);
  const last = years.length > 0 ? Math.max(...years) : coverage.lastYear;
  return { ...plan, yearFrom: last - plan.lastYears + 1, yearTo: last };
}

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
