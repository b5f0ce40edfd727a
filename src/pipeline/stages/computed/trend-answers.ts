/** Plans over a topic's years: its course and peak, emerging subtopics, and its co-authorship network. */
import { smoothedGrowth } from '../../../analytics/analytics-math';
import { type TopicSet } from '../../../analytics/topic-sets';
import type { AskDependencies } from '../../ask-types';
import { type AnalyticsPlan } from '../../plan-schema';
import { type ComputedSentence, LIST, mean, examplePapers, type Outcome, quoteList, setText, years } from './outcome';

/**
 * The years a trend counts over: the years asked for, else those the topic's papers span, up to `lastYear`; or why
 * there are none.
 */
export function yearWindow(
  set: TopicSet,
  plan: AnalyticsPlan,
  lastYear: number,
): { from: number; to: number } | { refusal: string } {
  const years = set.papers.map((p) => p.year).filter((y): y is number => y !== null);
  if (years.length === 0) return { refusal: `the papers on "${set.phrase}" have no publication years` };
  return { from: plan.yearFrom ?? Math.min(...years), to: Math.min(plan.yearTo ?? Math.max(...years), lastYear) };
}

export async function trend(
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
  const points = await deps.analytics.trends.yearsOfPapers(
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
  const cited = examplePapers(set.papers, 'internal')
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

export async function emerging(
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

export async function collaboration(
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
