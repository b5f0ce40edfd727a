/**
 * Science-of-science plans over a topic's papers: Lotka, Bradford, disruption (CD index), sleeping beauties, main path,
 * research fronts, bursts and normalised impact.
 */
import { type TopicSet } from '../../../analytics/topic-sets';
import { contentTerms, stem } from '../../../text';
import type { AskDependencies } from '../../ask-types';
import { type AnalyticsPlan } from '../../plan-schema';
import {
  citedExamples,
  LIST,
  examplePapers,
  mostCited,
  type Outcome,
  percent,
  quoteList,
  ranking,
  setFilter,
  setText,
  spanOf,
  years,
} from './outcome';
import { yearWindow } from './trend-answers';

/** Lotka's law over the authors of the topic's papers: the share with one paper and the fitted exponent. */
export async function lotka(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const fit = await deps.science.lotkaOfPeople(setFilter(set));
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
  const top = examplePapers(set.papers, plan.citationBasis).slice(0, 2);
  return {
    sentences: [
      {
        text: `${setText(set, plan, venue)}; their ${fit.authors} identified authors (${fit.records} author records: those sharing an ORCID, or a name and a co-author or an institution, counted as one person) are ${classes.join(', ')}${fit.distribution.length > 4 ? ' and so on' : ''}: ${percent(share)} wrote one of these papers.`,
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
export async function bradford(
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
export async function disruptive(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const { ranked: rows, fewReferences } = await deps.science.impact.disruptionOfPapers(
    set.papers.map((p) => p.id),
    MIN_CD_CITING,
  );
  // A paper citing nothing the graph holds scores +1 by construction: it is left out, and the answer says how many.
  const leftOut =
    fewReferences > 0
      ? ` (left out: ${fewReferences === 1 ? '1 paper that cites' : `${fewReferences} papers that cite`} no work the graph knows, whose CD index is +1 by construction since nothing can consolidate ${fewReferences === 1 ? 'it' : 'them'})`
      : '';
  if (rows.length === 0)
    return {
      refusal: `no paper on "${set.phrase}" that cites a paper of the graph is cited by ${MIN_CD_CITING} or more papers in the graph, so none has a CD index to rank${leftOut}`,
    };
  const top = rows.slice(0, LIST);
  const signed = (cd: number) => (cd > 0 ? `+${cd.toFixed(2)}` : cd.toFixed(2));
  return {
    sentences: [
      {
        text: `${setText(set, plan, venue)}; of the ${rows.length} cited by at least ${MIN_CD_CITING} papers in the graph${leftOut}, the most disruptive by the CD index (Funk and Owen-Smith 2017: +1 when later work cites a paper without its references, −1 when it cites them together) are ${quoteList(top.map((r) => `"${r.title ?? r.paperId}" (${r.year ?? 'n.d.'}; CD ${signed(r.cd!)}: ${r.focalOnly} papers cite it alone, ${r.both} with its references, ${r.referencesOnly} only its references)`))}.`,
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
export async function sleepingBeauties(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const basis = plan.citationBasis === 'global' ? 'GLOBAL_CITATIONS' : 'INTERNAL_CITATIONS';
  const beauties = await deps.science.impact.sleepingBeauties(setFilter(set), basis, LIST, MIN_BEAUTY_CITATIONS);
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
export async function mainPath(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const path = await deps.science.networks.mainPath(setFilter(set), NETWORK_PAPERS);
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
export async function researchFronts(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const clustering = await deps.science.networks.clusters(setFilter(set), 'COUPLING', {
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
export async function bursts(
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
    await deps.science.bursts.topicBursts(setFilter(set), window.from, Math.min(window.to, window.from + 300), {
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
export async function normalisedImpact(
  deps: AskDependencies,
  set: TopicSet,
  plan: AnalyticsPlan,
  venue: string | null,
): Promise<Outcome> {
  const candidates = mostCited(set.papers, 'internal').slice(0, 1000);
  const impacts = await deps.science.impact.normalisedImpact(candidates.map((p) => p.id));
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
