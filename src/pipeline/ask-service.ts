import { badInput } from '../errors';
import type { RequestContext } from '../request-context';
import { contentTerms } from '../text';
import {
  type AskDependencies,
  type AskOptions,
  type AskRequest,
  type AskResult,
  type Gathered,
  setsOnly,
} from './ask-types';
import { buildResult } from './result';
import { ROUTES } from './router';
import { runStage } from './stage';
import { compose } from './stages/compose';
import { computedAnswerStage } from './stages/computed-answers';
import { externalSearchStage } from './stages/external-search';
import { gatherEvidenceStage } from './stages/gather-evidence';
import { graphExpansionStage } from './stages/graph-expansion';
import { llmPlanStage, planStage } from './stages/plan';
import { retryStage } from './stages/retry';
import { llmRewriteStage, rewriteStage } from './stages/rewrite';
import { llmRouteStage, routeStage } from './stages/route';

export type { AskDependencies, AskOptions, AskResult, StageTrace, SubQuery } from './ask-types';

/** Longest question, in characters. */
export const MAX_QUESTION_LENGTH = 2000;

/**
 * The question pipeline, as a sequence of typed stages (src/pipeline/stages/): route, rewrite, (computed answers for
 * bibliometric and trend questions), retrieve and score sufficiency, retry, search outside and vet, expand over the
 * citation graph, then compose — context, pre-generation check, generation, verification of every citation — or
 * abstain. Each stage records its time and a note in the trace; the request's context meters LLM and API calls.
 */
export class AskService {
  private readonly stages;

  constructor(private readonly deps: AskDependencies) {
    this.stages = {
      route: routeStage(deps),
      routeLlm: llmRouteStage,
      rewrite: rewriteStage,
      rewriteLlm: llmRewriteStage(deps),
      plan: planStage,
      planLlm: llmPlanStage,
      computed: computedAnswerStage(deps),
      gather: gatherEvidenceStage(deps),
      retry: retryStage(deps),
      external: externalSearchStage(deps),
      graphExpansion: graphExpansionStage(deps),
    };
  }

  async ask(ctx: RequestContext, question: string, options: AskOptions = {}): Promise<AskResult> {
    const request = this.request(ctx, question, options);
    const { stages, deps } = this;
    const routed = await runStage(stages.routeLlm, await runStage(stages.route, request));
    const rewritten = await runStage(stages.rewriteLlm, await runStage(stages.rewrite, routed));

    const ownDocumentsOnly = setsOnly(options);
    if (!ownDocumentsOnly && (rewritten.decision.route === 'bibliometric' || rewritten.decision.route === 'trend')) {
      const planned = await runStage(stages.planLlm, await runStage(stages.plan, rewritten));
      const computed = await runStage(stages.computed, planned);
      if (computed.computed) return buildResult(deps, computed, computed.computed, computed.plan);
      // Nothing countable matched: the content path answers, or abstains.
    }

    let gathered: Gathered = await runStage(stages.gather, rewritten);
    const route = gathered.decision.route;
    for (let retry = 0; retry < deps.settings.evidence.retries && route !== 'current_world'; retry += 1) {
      if (gathered.sufficiency.band !== 'WEAK') break;
      gathered = await runStage(stages.retry, gathered);
    }
    const external = options.externalSearch ?? deps.settings.evidence.externalSearch;
    if (external && !ownDocumentsOnly && (route === 'current_world' || gathered.sufficiency.band === 'WEAK')) {
      gathered = await runStage(stages.external, gathered);
    }
    if ((options.graphExpansion ?? true) && !ownDocumentsOnly && gathered.pool.size > 0) {
      gathered = await runStage(stages.graphExpansion, gathered);
    }
    return compose(deps, gathered);
  }

  /** Checks the question and options, and forks the request context so this answer accounts for its own calls. */
  private request(ctx: RequestContext, question: string, options: AskOptions): AskRequest {
    const trimmed = question.trim();
    if (trimmed.length > MAX_QUESTION_LENGTH) {
      throw badInput(`the question is longer than ${MAX_QUESTION_LENGTH.toLocaleString('en')} characters`, {
        argument: 'question',
      });
    }
    if (contentTerms(trimmed).length === 0)
      throw badInput('the question has no searchable words', { argument: 'question' });
    if (options.route && !ROUTES.includes(options.route)) {
      throw badInput(`route must be one of ${ROUTES.join(', ')}`, { argument: 'options.route' });
    }
    if (options.maxSubQueries != null && (!Number.isInteger(options.maxSubQueries) || options.maxSubQueries < 1)) {
      throw badInput('options.maxSubQueries must be a whole number of at least 1', {
        argument: 'options.maxSubQueries',
      });
    }
    return { question: trimmed, options, ctx: ctx.fork({ useLlm: options.useLlm }), started: Date.now(), trace: [] };
  }
}
