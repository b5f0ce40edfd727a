/** Plans about one person: metrics and co-authors, the person named or reached by a first step (a ranking). */
import { MAX_PAGE } from '../../../paging';
import type { PaperFilter } from '../../../domain';
import type { AskDependencies } from '../../ask-types';
import { type AnalyticsPlan } from '../../plan-schema';
import {
  type ComputedSentence,
  type Found,
  LIST,
  type Outcome,
  personText,
  type PlanContext,
  quoteList,
  ranking,
  setText,
  yearsText,
} from './outcome';

/** A person's metrics or co-authors: named by the question, or reached by its first step (a ranking). */
export async function personAnswer(ctx: PlanContext): Promise<Outcome> {
  const { deps, plan, found, filter } = ctx;
  const { analytics } = deps;
  const step = plan.person ? null : await firstStepPerson(deps, plan, filter, found);
  if (step && 'refusal' in step) return step;
  const name = step?.name ?? plan.person;
  const person = name ? await analytics.people.resolvePerson(name) : null;
  if (!person) return { refusal: `no identified author in the graph is named "${name ?? ''}"` };
  found.person(name!, person);
  const stepSentences = step ? [step.sentence] : [];
  const metrics = await analytics.people.personMetrics(person.ids);
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
  const coauthors = await analytics.people.personCoauthors(person.ids, LIST);
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

/** The first step of a plan reaching a person through a ranking: the topic's most prolific or most cited author. */
async function firstStepPerson(
  deps: AskDependencies,
  plan: AnalyticsPlan,
  filter: PaperFilter,
  found: Found,
): Promise<{ name: string; sentence: ComputedSentence } | { refusal: string } | null> {
  if (plan.firstStep !== 'most_prolific_author' && plan.firstStep !== 'most_cited_author') return null;
  if (!plan.topic) return { refusal: 'the question names no topic to find its author on' };
  const set = found.topic(await deps.analytics.topics.topicSet(plan.topic, filter));
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
  const [top] = await deps.analytics.people.peopleOf(rows.map((row) => ({ ...row, count: value(row) })));
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
