import { parseJsonObject } from '../../generation/llm';
import { rewritePrompt } from '../../generation/prompts';
import type { DocumentFrequencies } from '../../retrieval/expansion';
import { contentTerms } from '../../text';
import type { AskDependencies, Routed, Rewritten, SubQuery } from '../ask-types';
import { isSourceFailure, type Stage } from '../stage';

/** Most sub-queries a question is split into. */
export const MAX_SUB_QUERIES = 5;

function classify(question: string): SubQuery['queryClass'] {
  if (/\b(why|how does|how do|mechanism|explain|compare|compared|versus|vs)\b/i.test(question)) return 'reasoning';
  if (/\b(overview|summar|review|evidence on|what is known|state of)\b/i.test(question)) return 'broad_synthesis';
  return 'precise_fact';
}

/** Words that frame a question but carry no topic: dropped from the technical rewrite. */
const FRAMING =
  /\b(what|which|who|whom|whose|how|why|when|where|does|do|did|is|are|was|were|can|could|should|would|will|the|a|an|of|on|in|about|tell me|explain|summari[sz]e|show|list|please|evidence|there|any)\b/gi;

/**
 * Offline rewrite and decomposition: the rewrite keeps the question's content terms; sub-queries split it on
 * conjunctions and comparisons, each keeping only words of the question (nothing invented).
 */
export function decompose(question: string, maxSubQueries: number): { rewrite: string; subQueries: string[] } {
  const rewrite = contentTerms(question.replace(FRAMING, ' ')).join(' ') || contentTerms(question).join(' ');
  const parts = question
    .split(/\b(?:and|versus|vs\.?|compared (?:with|to)|as well as|or)\b|[;,]/i)
    .map((part) => contentTerms(part.replace(FRAMING, ' ')).join(' '))
    .filter((part) => part.split(' ').length >= 2);
  const subQueries = [rewrite, ...parts.filter((part) => part !== rewrite)];
  return { rewrite, subQueries: [...new Set(subQueries)].filter(Boolean).slice(0, Math.max(1, maxSubQueries)) };
}

/** Keeps only the words of an LLM-proposed query that come from the question or exist in the corpus vocabulary. */
export function constrainQuery(proposed: string, question: string, vocabulary: DocumentFrequencies): string {
  const own = new Set(contentTerms(question));
  return contentTerms(proposed)
    .filter((term) => own.has(term) || vocabulary.df(term) > 0)
    .join(' ');
}

function subQueriesOf(question: string, texts: readonly string[]): SubQuery[] {
  const queryClass = classify(question);
  return texts.map((text) => ({ text, queryClass, domain: null, evidenceCount: 0 }));
}

function maxSubQueries(state: Routed): number {
  return Math.max(1, Math.min(MAX_SUB_QUERIES, state.options.maxSubQueries ?? MAX_SUB_QUERIES));
}

/** The rewrite and sub-queries made of the question's own words. */
export const rewriteStage: Stage<Routed, Rewritten> = {
  name: 'rewrite',
  run: (state) => {
    const { rewrite, subQueries } = decompose(state.question, maxSubQueries(state));
    return Promise.resolve({ ...state, rewrite, subQueries: subQueriesOf(state.question, subQueries) });
  },
  note: (state) => `${state.subQueries.length} sub-queries`,
};

/**
 * With an LLM: its rewrite and sub-queries, each keeping only words of the question or of the corpus vocabulary (so
 * nothing invented is searched). On failure, or when nothing survives, the offline decomposition stands.
 */
export function llmRewriteStage(deps: AskDependencies): Stage<Rewritten, Rewritten> {
  return {
    name: 'rewrite_llm',
    run: async (state) => {
      if (!state.ctx.llm) return state;
      const max = maxSubQueries(state);
      const result = parseJsonObject(
        (await state.ctx.llm.chat(rewritePrompt(state.question, max), { json: true })).text,
      );
      const vocabulary = await deps.search.documentFrequencies(state.options.collections ?? null);
      const proposals = [
        typeof result.rewrite === 'string' ? result.rewrite : '',
        ...(Array.isArray(result.subQueries) ? result.subQueries.map(String) : []),
      ]
        .map((query) => constrainQuery(query, state.question, vocabulary))
        .filter((query) => query.length > 0);
      if (proposals.length === 0) return state;
      return {
        ...state,
        rewrite: proposals[0]!,
        subQueries: subQueriesOf(state.question, [...new Set(proposals)].slice(0, max)),
      };
    },
    tolerates: { failure: isSourceFailure, fallback: (state) => state },
    note: (state) => `${state.subQueries.length} sub-queries`,
  };
}
