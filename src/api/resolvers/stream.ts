import type { AppContext } from '../../app-context';
import type { AskResult } from '../../pipeline/ask-types';
import type { StageEvent } from '../../request-context';
import { pumpEvents, relayEvents } from '../event-pump';
import type { GraphqlContext } from '../graphql-context';
import type { Resolvers } from '../generated/graphql';
import type { Lanes } from '../lanes';
import { refuseUnknownScope } from './ask';
import { setScope } from './sets';

/** One event of a streamed answer (the GraphQL `AskEvent`). */
export interface AskEventModel {
  kind: 'STAGE' | 'ROUTE' | 'PLAN' | 'SUFFICIENCY' | 'SENTENCE' | 'RESULT';
  stage: string;
  ms: number;
  note: string;
  route?: AskResult['route'];
  routeReasons?: string[];
  plan?: AskResult['plan'];
  sufficiency?: AskResult['sufficiency'];
  sentence?: AskResult['sentences'][number];
  result?: AskResult;
}

/** What a finished stage says to a streaming client: the stage itself, and the route, plan or sufficiency it set. */
export function eventsOfStage(event: StageEvent, seen: { route: boolean; plan: boolean }): AskEventModel[] {
  const base = { stage: event.stage, ms: event.ms, note: event.note };
  const out: AskEventModel[] = [{ kind: 'STAGE', ...base }];
  const state = event.state as {
    decision?: { route: AskResult['route']; reasons: string[] };
    plan?: AskResult['plan'];
    sufficiency?: AskResult['sufficiency'];
  };
  // The route of the first stage that set it (the LLM classifier may change it once more: its stage says so).
  if (state.decision && (!seen.route || event.stage === 'route_llm')) {
    seen.route = true;
    out.push({ kind: 'ROUTE', ...base, route: state.decision.route, routeReasons: state.decision.reasons });
  }
  if (state.plan && !seen.plan) {
    seen.plan = true;
    out.push({ kind: 'PLAN', ...base, plan: state.plan });
  }
  if (
    state.sufficiency &&
    ['retrieve', 'retry', 'external_search', 'graph_expansion', 'relate'].includes(event.stage)
  ) {
    out.push({ kind: 'SUFFICIENCY', ...base, sufficiency: state.sufficiency });
  }
  return out;
}

/**
 * The events of one answer as they happen: stage events pushed by the pipeline, then the verified sentences and the
 * result. Ending the iteration (the client went away) aborts the request, which stops the pipeline at its next stage
 * and ends its database work.
 */
async function* askEvents(
  app: AppContext,
  lanes: Lanes,
  context: GraphqlContext,
  question: string,
  options: Parameters<AppContext['ask']['ask']>[2],
): AsyncGenerator<{ askStream: AskEventModel }> {
  const seen = { route: false, plan: false };
  const started = Date.now();
  try {
    const result = yield* relayEvents(
      pumpEvents<AskEventModel, AskResult>((push) => {
        context.request.onStage((event) => push(...eventsOfStage(event, seen)));
        return lanes.ask.run(context.request, () => app.ask.ask(context.request, question, options));
      }),
      (event) => ({ askStream: event }),
      // A client that left before the end: stop the work done for it.
      () => context.request.deadline.dispose(),
    );
    for (const sentence of result.sentences) {
      yield { askStream: { kind: 'SENTENCE', stage: 'verify', ms: 0, note: '', sentence } };
    }
    yield { askStream: { kind: 'RESULT', stage: 'done', ms: Date.now() - started, note: '', result } };
  } finally {
    context.request.onStage(null);
  }
}

/** `askStream` over GraphQL subscriptions (served by the SSE handler in src/api/http-server.ts). */
export function streamResolvers(app: AppContext, lanes: Lanes): Resolvers {
  return {
    Subscription: {
      askStream: {
        subscribe: async (_, args, context) => {
          const { documentSet, ...options } = args.options ?? {};
          await refuseUnknownScope(app, options.collections);
          const documents = await setScope(app, context, documentSet);
          // Over capacity, the subscription is refused with OVERLOADED at once instead of an empty stream.
          lanes.ask.checkRoom();
          return askEvents(app, lanes, context, args.question, { ...options, documents });
        },
      },
    },
  };
}
