import { parseJsonObject } from '../../generation/llm';
import { planPrompt } from '../../generation/prompts';
import type { Rewritten } from '../ask-types';
import { type AnalyticsPlan, describePlan, PERSON_OPERATIONS, PLAN_OPERATIONS, planSchema } from '../plan-schema';
import { planQuestion } from '../planner';
import { isSourceFailure, type Stage } from '../stage';

export type Planned = Rewritten & { readonly plan: AnalyticsPlan };

/** The offline plan of a bibliometric or trend question (rules over the question's words). */
export const planStage: Stage<Rewritten, Planned> = {
  name: 'plan',
  run: (state) =>
    Promise.resolve({
      ...state,
      plan: planQuestion(state.question, state.decision.route === 'trend' ? 'trend' : 'bibliometric'),
    }),
  note: (state) => describePlan(state.plan),
};

/**
 * With an LLM, its plan (JSON, checked against the same schema) replaces the rules' — unless it names a person, paper
 * or topic the question does not contain, or fails; then the rules' plan stands.
 */
export const llmPlanStage: Stage<Planned, Planned> = {
  name: 'plan_llm',
  run: async (state) => {
    if (!state.ctx.llm) return state;
    const result = await state.ctx.llm.chat(planPrompt(state.question, PLAN_OPERATIONS, state.decision.route), {
      json: true,
    });
    const parsed = planSchema.safeParse(parseJsonObject(result.text));
    if (!parsed.success) return state;
    const plan = parsed.data;
    const lower = state.question.toLowerCase();
    const grounded = [plan.person, plan.paper].every((value) => value === null || lower.includes(value.toLowerCase()));
    if (!grounded || (PERSON_OPERATIONS.has(plan.operation) && !plan.person)) return state;
    return { ...state, plan: { ...plan, source: 'llm', reason: `LLM planner (rules said ${state.plan.operation})` } };
  },
  tolerates: { failure: isSourceFailure, fallback: (state) => state },
  note: (state) => describePlan(state.plan),
};
