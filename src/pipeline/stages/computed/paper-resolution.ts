/** The paper a question names, found in the graph: by DOI, acronym, title or description, or by a first step. */
import type { PaperFilter } from '../../../domain';
import { contentTerms, stem, terms } from '../../../text';
import type { AskDependencies, Gathered } from '../../ask-types';
import { acronymIn } from '../../plan-references';
import { type AnalyticsPlan } from '../../plan-schema';
import { type ComputedSentence, type Found, mostCited, setText, yearsText } from './outcome';

/** The paper a plan is about: reached by its first step (the topic's most cited paper), or named by the question. */
export async function planPaper(
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
  const set = found.topic(await deps.analytics.topics.topicSet(plan.topic, filter));
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

/** Search hits whose titles are compared with a title the question gives. */
const TITLE_CANDIDATES = 5;

/** The paper a reference names: by DOI, by acronym in a title or abstract, by its title, or by a description. */
export async function resolvePaper(deps: AskDependencies, state: Gathered, reference: string, found: Found) {
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
    TITLE_CANDIDATES,
    { collections: state.options.collections ?? null },
    { passages: 0 },
  );
  // The paper whose title is the reference's words, else the hit whose title is closest to them (shared words over
  // the words of both), among those holding 80% of them: a longer title that holds most of a short one ("One-step
  // cartilage repair technique … clinical developments" for "A clinical review of cartilage repair techniques") is not
  // the paper when the paper itself is found.
  const words = new Set(terms(reference));
  let best: { paper: (typeof response.results)[number]['paper']; closeness: number } | null = null;
  for (const { paper } of response.results) {
    if (!paper.title) continue;
    const title = new Set(terms(paper.title));
    const shared = [...words].filter((w) => title.has(w)).length;
    if (shared / Math.max(1, words.size) < 0.8) continue;
    const closeness = shared / new Set([...words, ...title]).size;
    if (!best || closeness > best.closeness) best = { paper, closeness };
  }
  if (best) {
    found.paper(reference, best.paper, 'by its title');
    return best.paper;
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
export async function describedPaper(deps: AskDependencies, state: Gathered, reference: string, found: Found) {
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
