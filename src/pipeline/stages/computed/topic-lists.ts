/** Plans that count or rank every paper on a topic: the count, papers, authors, venues, institutions, countries. */
import { type TopicSet } from '../../../analytics/topic-sets';
import { countryName } from '../../plan-places';
import {
  groupSentence,
  LIST,
  examplePapers,
  mostCited,
  type Outcome,
  type PlanContext,
  quoteList,
  ranking,
  setText,
  spanOf,
} from './outcome';

/** How many papers the topic holds, with its most cited. */
export function countPapers(ctx: PlanContext, set: TopicSet): Outcome {
  const { plan, scope: venueName } = ctx;
  const top = examplePapers(set.papers, plan.citationBasis).slice(0, 3);
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

/** The topic's most cited papers, by the basis asked for. */
export function topPapers(ctx: PlanContext, set: TopicSet): Outcome {
  const { plan, scope: venueName } = ctx;
  const top = mostCited(set.papers, plan.citationBasis).slice(0, LIST);
  const basis = plan.citationBasis === 'global' ? 'global citation count' : 'citations from other papers in the graph';
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

/** The topic's authors with the most papers, or the most cited. */
export async function topAuthors(ctx: PlanContext, set: TopicSet): Promise<Outcome> {
  const { deps, plan, scope: venueName } = ctx;
  const { analytics } = deps;
  const ids = set.papers.map((p) => p.id);
  const cited = plan.rankBy === 'citations';
  const rows = await analytics.authorsOfPapers(ids, LIST * 4, cited ? plan.citationBasis : 'papers');
  const people = await analytics.people.peopleOf(
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

/** The venues that publish the topic's papers most. */
export async function topVenues(ctx: PlanContext, set: TopicSet): Promise<Outcome> {
  const { deps, plan, scope: venueName } = ctx;
  const { analytics } = deps;
  const ids = set.papers.map((p) => p.id);
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

/** The institutions of the topic's authors. */
export async function topInstitutions(ctx: PlanContext, set: TopicSet): Promise<Outcome> {
  const { deps, plan, scope: venueName } = ctx;
  const { analytics } = deps;
  const ids = set.papers.map((p) => p.id);
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

/** The countries of the topic's authors' institutions. */
export async function topCountries(ctx: PlanContext, set: TopicSet): Promise<Outcome> {
  const { deps, plan, scope: venueName } = ctx;
  const { analytics } = deps;
  const ids = set.papers.map((p) => p.id);
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
