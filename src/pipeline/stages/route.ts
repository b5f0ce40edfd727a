import { parseJsonObject } from '../../generation/llm';
import { routePrompt } from '../../generation/prompts';
import type { AskRequest, Routed } from '../ask-types';
import { type Route, routeQuestion, ROUTES } from '../router';
import { isSourceFailure, type Stage } from '../stage';

/** The route by the offline rules, or as the caller forced it. */
export const routeStage: Stage<AskRequest, Routed> = {
  name: 'route',
  run: (state) => {
    const decision = routeQuestion(state.question);
    const forced = state.options.route;
    return Promise.resolve({
      ...state,
      decision: forced ? { ...decision, route: forced, reasons: ['route given by the caller'] } : decision,
    });
  },
  note: (state) => `${state.decision.route}: ${state.decision.reasons.join('; ')}`,
};

/** With an LLM, its classification replaces the rules' (unless the caller forced a route); on failure the rules stand. */
export const llmRouteStage: Stage<Routed, Routed> = {
  name: 'route_llm',
  run: async (state) => {
    if (!state.ctx.llm || state.options.route) return state;
    const result = await state.ctx.llm.chat(routePrompt(state.question), { json: true });
    const route = parseJsonObject(result.text).route;
    if (typeof route !== 'string' || !(ROUTES as readonly string[]).includes(route)) return state;
    return {
      ...state,
      decision: {
        ...state.decision,
        route: route as Route,
        reasons: [`LLM classifier (rules said ${state.decision.route})`],
      },
    };
  },
  tolerates: {
    failure: isSourceFailure,
    fallback: (state, error) => ({
      ...state,
      decision: { ...state.decision, reasons: [...state.decision.reasons, `LLM classifier failed: ${error.message}`] },
    }),
  },
  note: (state) => `${state.decision.route}: ${state.decision.reasons.join('; ')}`,
};
