/** Plans about one paper: what cites it, what it cites, what is related to it, and the citation path to another. */
import { MAX_PAGE } from '../../../paging';
import type { AskDependencies, Gathered } from '../../ask-types';
import { type AnalyticsPlan } from '../../plan-schema';
import { Found, LIST, type Outcome, type PlanContext, quoteList, ranking } from './outcome';
import { planPaper, resolvePaper } from './paper-resolution';

/** The papers in the graph that cite a paper (derivative works), or that it cites (prior works). */
export async function citedWorks(ctx: PlanContext): Promise<Outcome> {
  const { deps, state, plan, found, filter } = ctx;
  const { analytics } = deps;
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

/** The papers most related to one by citations: co-cited with it, coupled to it, or both. */
export async function relatedPapers(ctx: PlanContext): Promise<Outcome> {
  const { deps, state, plan, found, filter } = ctx;
  const { analytics } = deps;
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

/** The longest citation chain looked for between two papers. */
const MAX_PATH_LINKS = 6;

/** The shortest chain of citations (either way along each link) between the two papers a question names. */
export async function citationPath(
  deps: AskDependencies,
  state: Gathered,
  plan: AnalyticsPlan,
  found: Found,
): Promise<Outcome> {
  const references = [plan.paper, plan.second].filter((r): r is string => !!r);
  if (references.length < 2) return { refusal: 'the question does not name two papers to connect' };
  // Side by side (each is one or two searches), each into a collector of its own, so the entities keep the
  // question's order.
  const own = references.map(() => new Found());
  const papers = await Promise.all(references.map((reference, i) => resolvePaper(deps, state, reference, own[i]!)));
  for (const part of own) found.add(part);
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
