import type { WorkRecord } from '../../domain';
import { similarityScale } from '../../embedding/similarity-scale';
import { cosine } from '../../embedding/embedder';
import type { PortfolioName } from '../../external/portfolios';
import { parseJsonObject } from '../../generation/llm';
import { vetoPrompt } from '../../generation/prompts';
import type { AskDependencies, Gathered } from '../ask-types';
import type { Route } from '../router';
import { isNonFatal, isSourceFailure, type Stage } from '../stage';
import { questionPortfolios, rescoreFinds } from '../portfolios';
import { sufficiencyOf } from './gather-evidence';

/**
 * The portfolios in the order they are used: a question gets as many as its route's attempts allow (chosen by
 * bench:portfolios; see docs/ask.md).
 */
export const PORTFOLIO_ORDER: readonly PortfolioName[] = ['general', 'primary', 'field', 'wildcard'];
/** Works asked of a provider per search. */
const WORKS_PER_SEARCH = 10;
/** Works kept at most, best rescored first. */
const WORKS_KEPT = 15;

function attemptsFor(deps: AskDependencies, route: Route): number {
  const e = deps.settings.evidence;
  if (route === 'current_world') return e.externalAttemptsCurrent;
  return route === 'bibliometric' ? e.externalAttemptsBibliometric : e.externalAttemptsContent;
}

/** With an LLM, external papers it judges irrelevant to the question are vetoed; without one, or if it fails, all stay. */
async function llmVeto(state: Gathered, records: WorkRecord[]): Promise<WorkRecord[]> {
  if (!state.ctx.llm || records.length === 0) return records;
  try {
    const result = await state.ctx.llm.chat(
      vetoPrompt(
        state.question,
        records.map((r) => r.title ?? ''),
      ),
      { json: true },
    );
    const keep = parseJsonObject(result.text).keep;
    const kept = new Set(Array.isArray(keep) ? keep.map(Number) : records.map((_, i) => i));
    return records.filter((_, index) => kept.has(index));
  } catch (error) {
    if (isSourceFailure(error)) return records;
    throw error;
  }
}

/**
 * Searches the scholarly APIs with the question's portfolios (see src/external/portfolios.ts), every provider that can
 * search each way at once; merges what they find by identifier and title; rescores it (similarity to the question,
 * the searches' agreement breaking ties); keeps the best that are close enough to the question (and pass the LLM's
 * veto when one is configured); writes them to the graph and adds their passages as external evidence. Offline, every
 * search fails fast and nothing is kept.
 */
export function externalSearchStage(deps: AskDependencies): Stage<Gathered, Gathered> {
  return {
    name: 'external',
    run: async (state) => {
      const attempts = attemptsFor(deps, state.decision.route);
      if (attempts === 0) return { ...state, sufficiency: sufficiencyOf(deps, state) };
      const portfolios = questionPortfolios(state.question, {
        names: PORTFOLIO_ORDER.slice(0, attempts),
        text: state.rewrite || state.question,
      });
      const report = await deps.external.searchPortfolios(state.ctx, portfolios, { cap: WORKS_PER_SEARCH });
      const candidates = report.merged.filter((work) => work.record.title);
      let kept: typeof candidates = [];
      if (candidates.length > 0) {
        const embedder = await deps.embedder();
        const vectors = await embedder.embed(candidates.map((w) => `${w.record.title}. ${w.record.abstract ?? ''}`));
        const scale = similarityScale(embedder.modelName);
        const similarities = vectors.map((vector) => scale.toReference(cosine(vector, state.questionVector), 'query'));
        const close = rescoreFinds(candidates, similarities)
          .filter((find) => find.similarity >= deps.settings.evidence.vettingThreshold)
          .map((find) => find.work);
        const vetted = new Set(
          await llmVeto(
            state,
            close.map((work) => work.record),
          ),
        );
        kept = close.filter((work) => vetted.has(work.record)).slice(0, WORKS_KEPT);
      }
      // The graph id each kept work got: a work known by its DOI joins its paper (and keeps that paper's id).
      const graphId = new Map<string, string>();
      if (kept.length > 0) {
        const written = await deps.ingest.writeFetched(kept.map((work) => work.record));
        if (written.paperIds.length === kept.length)
          kept.forEach((work, i) => graphId.set(work.record.id, written.paperIds[i]!));
        deps.search.invalidate();
        await state.pool.addPapers([...new Set(written.paperIds)], 'external', 'external search');
      }
      const searches = [
        ...state.externalSearches,
        ...report.searches.map((search) => {
          const keptIds = kept
            .filter((work) => work.hits.some((h) => h.portfolio === search.portfolio && h.source === search.source))
            .map((work) => graphId.get(work.record.id) ?? work.record.id);
          return {
            query: search.query,
            source: search.source,
            portfolio: search.portfolio,
            found: search.found,
            kept: keptIds.length,
            keptIds,
            error: search.error ? `${search.error.code}: ${search.error.message}` : null,
          };
        }),
      ];
      return { ...state, externalSearches: searches, sufficiency: sufficiencyOf(deps, state) };
    },
    tolerates: { failure: isNonFatal, fallback: (state) => ({ ...state, sufficiency: sufficiencyOf(deps, state) }) },
    note: (state) =>
      state.externalSearches
        .map(
          (s) =>
            `${s.portfolio}@${s.source}: ${s.error ?? `${s.kept}/${s.found} kept${s.keptIds.length ? ` (${s.keptIds.join(', ')})` : ''}`}`,
        )
        .join('; '),
  };
}
