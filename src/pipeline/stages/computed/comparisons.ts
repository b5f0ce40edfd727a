/** Plans that set two things side by side: people, topics, periods, and which of two topics grew faster. */
import { type TopicSet } from '../../../analytics/topic-sets';
import type { AskDependencies } from '../../ask-types';
import { type AnalyticsPlan } from '../../plan-schema';
import {
  citedExamples,
  comparison,
  type Outcome,
  personText,
  type PlanContext,
  setText,
  spanOf,
  years,
  yearsText,
} from './outcome';

/** Two people on one measure (papers, citations or h-index, as the question asks). */
export async function comparePeople(ctx: PlanContext): Promise<Outcome> {
  const { deps, state, plan, found } = ctx;
  const { analytics } = deps;
  const names = [plan.person, plan.second].filter((name): name is string => !!name);
  const people = await Promise.all(names.map((name) => analytics.people.resolvePerson(name)));
  const missing = names.filter((_, i) => !people[i]);
  if (names.length < 2 || missing.length > 0)
    return { refusal: `no identified author in the graph is named ${missing.map((n) => `"${n}"`).join(' or ')}` };
  people.forEach((person, i) => found.person(names[i]!, person!));
  const measured = await Promise.all(people.map((person) => analytics.people.personMetrics(person!.ids)));
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
      detail: `${row.person.name}: ${row.value} (${row.metrics.works} papers in the graph, h-index ${row.metrics.hIndexGlobal} from global citations, ${row.metrics.hIndexInternal} from citations inside it).${personText(row.person)}`,
      papers: row.metrics.topPaperIds.slice(0, 2),
    })),
    null,
  );
}

/** The topic sets of the two topics a comparison names, each recorded as resolved. */
async function twoTopicSets(ctx: PlanContext): Promise<TopicSet[] | { refusal: string }> {
  const { deps, plan, found, filter } = ctx;
  const phrases = [plan.topic, plan.second].filter((phrase): phrase is string => !!phrase);
  if (phrases.length < 2) return { refusal: 'the question does not name two topics to compare' };
  return Promise.all(phrases.map(async (phrase) => found.topic(await deps.analytics.topics.topicSet(phrase, filter))));
}

/** Two topics by the size of their literatures. */
export async function compareTopics(ctx: PlanContext): Promise<Outcome> {
  const { plan, venue } = ctx;
  const sets = await twoTopicSets(ctx);
  if ('refusal' in sets) return sets;
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

/** One topic in two windows of years. */
export async function comparePeriods(ctx: PlanContext): Promise<Outcome> {
  const { deps, plan, found, filter } = ctx;
  const { analytics } = deps;
  if (!plan.topic || !plan.periods) return { refusal: 'the question does not name a topic and two windows of years' };
  const windows = plan.periods;
  const sets = await Promise.all(
    windows.map((w) => analytics.topics.topicSet(plan.topic!, { ...filter, yearFrom: w.from, yearTo: w.to })),
  );
  if (sets.every((set) => set.papers.length === 0))
    return {
      refusal: `no paper in the graph matches the topic "${plan.topic}" in ${windows.map(years).join(' or ')}`,
    };
  sets.forEach((set) => found.topic(set));
  const counts = sets.map((set) => set.papers.length);
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
    directionAnswer(ctx.state.question, counts, windows[0]!.from > windows[1]!.from),
  );
}

/**
 * "Yes — " or "No — " when a question asks whether a literature moved one way between two windows ("did X publications
 * fall from the 1980s to the 1990s?": from the earlier window's count to the later one's) or whether the first window
 * named had more or fewer papers than the second ("was there more X in 2016-2018 than in 2019-2021?"); empty otherwise.
 * `counts` are in the order the question names the windows; `laterFirst` says the first named is the later one.
 */
export function directionAnswer(question: string, counts: readonly number[], laterFirst = false): string {
  // "… in the 2000s or in the 2010s?" asks which, not whether.
  if (!/^\s*(?:did|has|have|had|was|were|is|are|does|do)\b/i.test(question) || /\bor\b/i.test(question)) return '';
  const [first, second] = counts as [number, number];
  const comparative = /\b(more|fewer|less)\b[^?]*\bthan\b/i.exec(question);
  if (comparative) return (/more/i.test(comparative[1]!) ? first > second : first < second) ? 'Yes — ' : 'No — ';
  const down = /\b(?:fall|falls|fallen|fell|declin\w*|decreas\w*|dropp?\w*|shr[iu]nk\w*)\b/i.test(question);
  const up = /\b(?:grow|grows|grew|grown|growing|ris(?:e|es|en|ing)|rose|increas\w*|expand\w*)\b/i.test(question);
  if (down === up) return '';
  const [earlier, later] = laterFirst ? [second, first] : [first, second];
  const moved = later > earlier ? 'up' : later < earlier ? 'down' : 'level';
  return (down ? moved === 'down' : moved === 'up') ? 'Yes — ' : 'No — ';
}

/** Two topics by how fast they grew. */
export async function compareTopicsTrend(ctx: PlanContext): Promise<Outcome> {
  const { deps, plan } = ctx;
  const sets = await twoTopicSets(ctx);
  if ('refusal' in sets) return sets;
  const empty = sets.filter((set) => set.papers.length === 0).map((set) => `"${set.phrase}"`);
  if (empty.length > 0) return { refusal: `no paper in the graph matches the topic ${empty.join(' or ')}` };
  return growthComparison(deps, sets, plan);
}

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
  const coverage = await deps.analytics.trends.coverageYears();
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
