import type { Evidence } from '../../domain';
import { resolveOptions } from '../../retrieval/search-types';
import { corporaOf } from '../../sets/documents-corpus';
import { contentTerms } from '../../text';
import type { AskDependencies, Gathered, Rewritten } from '../ask-types';
import { scoreSufficiency, type Sufficiency } from '../evidence';
import { EvidencePool } from '../evidence-pool';
import type { Stage } from '../stage';

/** Papers taken from each search of the pipeline. */
export const PAPERS_PER_SEARCH = 8;

/** The sufficiency of the pool as it stands. */
export function sufficiencyOf(
  deps: AskDependencies,
  state: Gathered | (Rewritten & { pool: EvidencePool }),
): Sufficiency {
  const { documents } = state.options;
  return scoreSufficiency(
    state.question,
    state.pool.values(),
    state.decision.route,
    deps.settings.evidence,
    undefined,
    documents && !documents.withSharedGraph ? documents.corpus.size : null,
  );
}

/** Runs a search of the pipeline and adds the best passages of its papers to the pool; returns how many were new. */
export async function searchIntoPool(
  deps: AskDependencies,
  state: Rewritten & { pool: EvidencePool },
  text: string,
  source: Evidence['source'],
  foundBy: string,
  options: { expansion?: boolean } = {},
): Promise<number> {
  if (contentTerms(text).length === 0) return 0;
  let added = 0;
  // The shared graph, the caller's own documents, or both: each ranks on its own, and its papers' passages enter the
  // same pool.
  for (const corpus of corporaOf(state.options.documents, deps.graph)) {
    const response = await corpus.search(
      state.ctx,
      text,
      PAPERS_PER_SEARCH,
      { collections: state.options.collections ?? null },
      resolveOptions(deps.search.defaultOptions, { passages: 0, ...options }),
    );
    added += await state.pool.addFrom(
      corpus,
      response.results.map((r) => r.paper.id),
      source,
      foundBy,
    );
  }
  return added;
}

/** The most frequent specific topic (level ≥ 1) of a few papers: the domain a sub-query's evidence is in. */
async function domainOf(deps: AskDependencies, paperIds: readonly string[]): Promise<string | null> {
  if (paperIds.length === 0) return null;
  const counts = new Map<string, number>();
  const topics = await deps.catalog.topicsOfPapers([...new Set(paperIds)].slice(0, 5), 5);
  for (const rows of topics.values())
    for (const { topic } of rows)
      if ((topic.level ?? 0) >= 1 && topic.name) counts.set(topic.name, (counts.get(topic.name) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? null;
}

/** Local hybrid retrieval per sub-query into one evidence pool, its domain, and how sufficient it is. */
export function gatherEvidenceStage(deps: AskDependencies): Stage<Rewritten, Gathered> {
  return {
    name: 'retrieve',
    run: async (state) => {
      const pool = new EvidencePool(state.question, state.questionVector, deps);
      const withPool = { ...state, pool };
      const subQueries = state.subQueries.map((sub) => ({ ...sub }));
      for (const sub of subQueries)
        sub.evidenceCount += await searchIntoPool(deps, withPool, sub.text, 'local', sub.text);
      const domain = await domainOf(
        deps,
        pool
          .values()
          .map((e) => e.paperId)
          .slice(0, 10),
      );
      for (const sub of subQueries) sub.domain = domain;
      const gathered: Gathered = {
        ...withPool,
        subQueries,
        sufficiency: sufficiencyOf(deps, withPool),
        externalSearches: [],
      };
      return gathered;
    },
    note: (state) =>
      `${state.pool.size} passages in the pool; sufficiency ${state.sufficiency.score} ${state.sufficiency.band}`,
  };
}
