import { contentTerms } from '../../text';
import type { AskDependencies, Gathered } from '../ask-types';
import { passesDriftGuard } from '../evidence';
import { isNonFatal, type Stage } from '../stage';
import { searchIntoPool, sufficiencyOf } from './gather-evidence';

/**
 * The agentic retry when evidence is WEAK: a reformulation from the question terms the best passages lack (read from
 * the sufficiency result) and the rewrite, searched with corpus-validated expansion. Skipped when the reformulation
 * drifts from the question (it must keep a share of its content terms).
 */
export function retryStage(deps: AskDependencies): Stage<Gathered, Gathered> {
  return {
    name: 'retry',
    run: async (state) => {
      const reformulated = [...new Set([...state.sufficiency.missingTerms, ...contentTerms(state.rewrite)])].join(' ');
      if (!passesDriftGuard(state.question, reformulated, deps.settings.evidence.driftGuard)) return state;
      await searchIntoPool(deps, state, reformulated, 'local', `retry: ${reformulated}`, { expansion: true });
      return { ...state, sufficiency: sufficiencyOf(deps, state) };
    },
    tolerates: { failure: isNonFatal, fallback: (state) => ({ ...state, sufficiency: sufficiencyOf(deps, state) }) },
    note: (state) =>
      `${state.pool.size} passages in the pool; sufficiency ${state.sufficiency.score} ${state.sufficiency.band}`,
  };
}
