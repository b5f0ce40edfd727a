import type { AskDependencies, Gathered } from '../ask-types';
import { isNonFatal, type Stage } from '../stage';
import { sufficiencyOf } from './gather-evidence';

/** Strongest papers whose citation neighbourhood is searched. */
const SEED_PAPERS = 3;

/** Adds the passages of papers co-cited with, citing or cited by the strongest papers of the pool. */
export function graphExpansionStage(deps: AskDependencies): Stage<Gathered, Gathered> {
  return {
    name: 'graph_expansion',
    run: async (state) => {
      const seeds = state.pool
        .bestPerPaper()
        .slice(0, SEED_PAPERS)
        .map((e) => e.paperId);
      const neighbours = new Set<string>();
      for (const id of seeds) {
        const [cocited, citedBy, references] = await Promise.all([
          deps.analytics.paperCocited(id, { skip: 0, limit: 3 }),
          deps.analytics.paperCitedBy(id, { skip: 0, limit: 2 }),
          deps.analytics.paperReferences(id, { skip: 0, limit: 2 }),
        ]);
        for (const row of cocited.items) if (!row.paper.stub) neighbours.add(row.paper.id);
        for (const paper of [...citedBy.items, ...references.items]) if (!paper.stub) neighbours.add(paper.id);
      }
      for (const id of seeds) neighbours.delete(id);
      await state.pool.addPapers([...neighbours], 'graph', 'citation graph');
      return { ...state, sufficiency: sufficiencyOf(deps, state) };
    },
    tolerates: { failure: isNonFatal, fallback: (state) => ({ ...state, sufficiency: sufficiencyOf(deps, state) }) },
    note: (state) => `${state.pool.size} passages in the pool`,
  };
}
