import type { WorkRecord } from '../../domain';
import { similarityScale } from '../../embedding/similarity-scale';
import { cosine } from '../../embedding/embedder';
import { ErrorCode } from '../../errors';
import type { ProviderName } from '../../external/provider-base';
import { parseJsonObject } from '../../generation/llm';
import { vetoPrompt } from '../../generation/prompts';
import type { AskDependencies, Gathered } from '../ask-types';
import type { Route } from '../router';
import { isNonFatal, isSourceFailure, type Stage } from '../stage';
import { sufficiencyOf } from './gather-evidence';

/** Providers asked in turn, one per attempt. */
const PROVIDERS: readonly ProviderName[] = ['openalex', 's2', 'crossref'];
/** Works asked of a provider per attempt. */
const WORKS_PER_ATTEMPT = 10;

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
 * Searches the scholarly APIs (OpenAlex, Semantic Scholar, Crossref in turn), keeps what is close enough to the
 * question (embedding similarity, and the LLM's veto when configured), writes it to the graph and adds its passages
 * as external evidence. An unreachable host (offline) ends the attempts.
 */
export function externalSearchStage(deps: AskDependencies): Stage<Gathered, Gathered> {
  return {
    name: 'external',
    run: async (state) => {
      const embedder = await deps.embedder();
      const kept: WorkRecord[] = [];
      const searches = [...state.externalSearches];
      const attempts = attemptsFor(deps, state.decision.route);
      for (let attempt = 0; attempt < attempts; attempt += 1) {
        const source = PROVIDERS[attempt % PROVIDERS.length]!;
        const query =
          state.subQueries[Math.floor(attempt / PROVIDERS.length) % state.subQueries.length]?.text ?? state.rewrite;
        const report = await deps.external.fetch(state.ctx, {
          search: query,
          sources: [source],
          cap: WORKS_PER_ATTEMPT,
        });
        const outcome = report.perSource[0]!;
        const candidates = report.merged.map((m) => m.record).filter((r) => r.title);
        let vetted: WorkRecord[] = [];
        if (candidates.length > 0) {
          const vectors = await embedder.embed(candidates.map((r) => `${r.title}. ${r.abstract ?? ''}`));
          const scale = similarityScale(embedder.modelName);
          vetted = candidates.filter(
            (_, index) =>
              scale.toReference(cosine(vectors[index]!, state.questionVector), 'query') >=
              deps.settings.evidence.vettingThreshold,
          );
          vetted = await llmVeto(state, vetted);
        }
        kept.push(...vetted);
        searches.push({
          query,
          source,
          found: outcome.found,
          kept: vetted.length,
          error: outcome.error ? `${outcome.error.code}: ${outcome.error.message}` : null,
        });
        if (outcome.error?.code === ErrorCode.EXTERNAL_UNREACHABLE) break; // offline: no other host resolves either
      }
      if (kept.length > 0) {
        const written = await deps.ingest.writeFetched(kept);
        deps.search.invalidate();
        await state.pool.addPapers([...new Set(written.paperIds)], 'external', 'external search');
      }
      return { ...state, externalSearches: searches, sufficiency: sufficiencyOf(deps, state) };
    },
    tolerates: { failure: isNonFatal, fallback: (state) => ({ ...state, sufficiency: sufficiencyOf(deps, state) }) },
    note: (state) =>
      state.externalSearches.map((s) => `${s.source}: ${s.error ?? `${s.kept}/${s.found} kept`}`).join(', '),
  };
}
