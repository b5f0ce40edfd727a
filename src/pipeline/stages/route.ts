import { parseJsonObject } from '../../generation/llm';
import { routePrompt } from '../../generation/prompts';
import type { AskDependencies, AskRequest, Routed } from '../ask-types';
import { QUESTION_AUXILIARIES } from '../concept-words';
import { PAPER_OPERATIONS, PERSON_OPERATIONS } from '../plan-schema';
import { planQuestion } from '../planner';
import type { RouteGuess } from '../route-classifier';
import {
  BEFORE_WORKS,
  HOW_MUCH_LITERATURE,
  SIZE_OF_LITERATURE,
  WORKS_THEN_HOW_MANY,
  maskSourceNames,
  routingText,
  NOW,
  PEAK_YEAR,
  type Route,
  type RouteDecision,
  routeQuestion,
  ROUTES,
} from '../router';
import { isSourceFailure, type Stage } from '../stage';

/**
 * Above this probability the classifier's route stands over the rules'; below it, a rule cue decides, and with no cue
 * the classifier's best guess does. Chosen by cross-validation on the training questions only (scripts/bench/router).
 */
export const CLASSIFIER_TRUST = 0.5;

/**
 * A question the planner can carry out as asked — a person's h-index or co-authors, a named paper's co-citations —
 * is bibliometric whatever the classifier says: the cue and its subject are both in the question.
 */
export function definitelyBibliometric(asked: string, rules: RouteDecision): string | null {
  const question = maskSourceNames(asked);
  const plan = planQuestion(question, 'bibliometric');
  const exact =
    PERSON_OPERATIONS.has(plan.operation) ||
    PAPER_OPERATIONS.has(plan.operation) ||
    // Rankings of the literature itself ("which journals…", "the canonical works on…") have no other reading,
    // unless the question is about the current world ("which hospitals offer it now").
    (LITERATURE_RANKINGS.has(plan.operation) &&
      plan.topic !== null &&
      rules.route !== 'current_world' &&
      // "Does X reduce hospital admissions?", "… in low-income countries?": a yes-no question about a finding, whose
      // hospitals and countries are part of it, not a ranking of them.
      !(YES_NO.test(question.trim()) && PLACE_RANKINGS.has(plan.operation))) ||
    // The people of a literature, named by an author word ("the key people in…", "which researchers…"); a bare
    // "who" also opens questions about content ("who discovered…").
    (plan.operation === 'top_authors' &&
      plan.topic !== null &&
      rules.route !== 'current_world' &&
      !/^cue "(?:who|whose|wrote)"/i.test(plan.reason)) ||
    // The size of a literature ("how many papers on…", "how big is the literature on…"); "how many patients…" is a
    // question about content.
    (plan.operation === 'count_papers' && plan.topic !== null && LITERATURE_SIZE.test(question)) ||
    // Which of two literatures is larger ("more papers on X or on Y"): a comparison of sizes, not of findings.
    (plan.operation === 'compare_topics' &&
      plan.second !== null &&
      (LITERATURE_WORD.test(question) || HOLDINGS.test(question)));
  return exact && plan.reason.startsWith('cue') ? `${plan.operation} ${plan.reason} with its subject` : null;
}

const LITERATURE_SIZE = new RegExp(
  String.raw`\b(?:(?:volume|amount|quantity) of (?:the )?(?:literature|research|work|papers|publications|studies)|how many ${BEFORE_WORKS}(?:papers|articles|publications|studies|works|records|reports)|${HOW_MUCH_LITERATURE}|number of (?:papers|articles|publications|studies|works)|(?:count|tally|head ?count)(?: up| of)? (?:the |all )?(?:[\w-]+ ){0,3}?(?:papers|articles|publications|studies|works)|${SIZE_OF_LITERATURE}|how (?:big|large|extensive|sizeable|sizable) (?:is|are) (?:the )?(?:literature|body of|field)|${WORKS_THEN_HOW_MANY}|literature\b.{0,40}\b(?:big|large|sizeable|sizable|extensive)|(?:give|tell|show) me (?:a |the )?(?:count|total|number))\b`,
  'i',
);

/**
 * A question about the year a literature peaked (PEAK_YEAR) whose topic the planner reads: trend, whatever the
 * classifier says.
 */
export function definitelyTrend(asked: string): string | null {
  const question = maskSourceNames(asked);
  const cue = PEAK_YEAR.exec(routingText(asked));
  if (!cue) return null;
  const plan = planQuestion(question, 'trend');
  return plan.operation === 'topic_trend' && plan.topic !== null
    ? `the year of a literature's peak ("${cue[0]}")`
    : null;
}

/** A question answered yes or no. */
const YES_NO = new RegExp(String.raw`^(?:${[...QUESTION_AUXILIARIES].join('|')})\b`, 'i');
/** Rankings of places: institutions and countries. */
const PLACE_RANKINGS: ReadonlySet<string> = new Set(['top_institutions', 'top_countries']);

/** The collection as what holds the papers: "does the graph hold more on X or on Y". */
const HOLDINGS = /\b(?:(?:the|this|your) (?:graph|collection|database|corpus|index)|you (?:hold|have|index|store))\b/i;

/** Words for a body of literature, as a comparison of two topics names it. */
const LITERATURE_WORD = /\b(?:literatures?|papers|articles|publications|studies|research|work|records)\b/i;

/**
 * Plan operations that measure the literature itself: venues, institutions and countries, the most cited or most
 * disruptive papers, Lotka's and Bradford's laws.
 */
const LITERATURE_RANKINGS: ReadonlySet<string> = new Set([
  'top_venues',
  'top_institutions',
  'top_countries',
  'top_papers',
  'disruptive_papers',
  'lotka',
  'bradford',
]);

/** Words a request to the service starts with ("List the top authors…", "Show the trend of…"). */
const REQUEST_START =
  /^(?:i (?:need|want|would like|'d like|am looking for|'m looking for)|we need|looking for|what|which|who|whom|whose|how|when|where|why|is|are|was|were|does|do|did|can|could|should|would|will|has|have|had|may|might|show|list|give|plot|chart|draw|map|count|find|compare|rank|name|tell|identify|get|return|summari[sz]e|describe|explain|please|top|most|trend|trends|number|total|amount)\b/i;

/**
 * Whether the text is an assertion to check against the evidence ("Antiretroviral therapy increases rates of
 * tuberculosis across CD4 strata."): a sentence closed by a full stop that neither asks nor requests. Its cue-like words
 * ("rates", "countries") describe content, so only a confident classifier or a rule cue moves it off the content route.
 */
export function isAssertion(question: string): boolean {
  const text = question.trim();
  return /\.$/.test(text) && !text.includes('?') && !REQUEST_START.test(text);
}

/**
 * What the route stage knows of a question besides the rules and the classifier: see definitelyBibliometric and
 * definitelyTrend, and whether it asks about the present (NOW: this week's news, a recent award), which no stored paper answers.
 */
export function routeOptions(
  question: string,
  rules: RouteDecision,
): {
  definite: string | null;
  definiteTrend: string | null;
  assertion: boolean;
  now: string | null;
  present: boolean;
} {
  const assertion = isAssertion(question);
  const masked = routingText(question);
  const now = NOW.exec(masked)?.[0] ?? null;
  const definiteTrend = assertion || now ? null : definitelyTrend(question);
  return {
    definite: assertion || now || definiteTrend ? null : definitelyBibliometric(question, rules),
    definiteTrend,
    assertion,
    now,
    present: PRESENT_WORDS.test(masked) || AGENCIES.test(masked),
  };
}

/** Agencies whose names are common words in lower case ("who", "nice"): written in capitals. */
const AGENCIES = /\b(?:WHO|NICE)\b/;
/**
 * Words a question about the current world has at least one of: time ("now", "at present", "latest", "this month"),
 * what changes with it (approvals, prices, coverage, availability, recruiting, shortages, guidance) or who decides it
 * (regulators, agencies, insurers). Without any, a confident guess of the current world is not taken: "what does
 * glaucoma cost Australia?" is a question for the economic studies the graph holds.
 */
const PRESENT_WORDS =
  /\b(?:now|nowadays|these days|at present|presently|currently|current|today|tonight|yesterday|tomorrow|this (?:week|month|year|season|quarter|spring|summer|autumn|fall|winter)|last (?:week|month)|latest|newest|recent(?:ly)?|lately|new|upcoming|ongoing|still|yet|anymore|so far|breaking|news|announce\w*|approv\w*|authori[sz]\w*|licen[sc]\w*|launch\w*|withdrawn|recall\w*|pric(?:e|es|ed|ing)|reimburs\w*|insur\w*|covered|coverage|availab\w*|shortages?|rationed|rationing|waiting lists?|recruit\w*|enrol\w*|guidance|guidelines?|regulators?|regulatory|fda|ema|cdc|nhs|mhra|government|minister|ministry|policy|law|ban(?:ned)?|stock|market|shares?|compan(?:y|ies)|deal|merger|acquisition|(?:19|20)\d{2})\b/i;

/** Combines the rules' decision with the classifier's guess (see CLASSIFIER_TRUST). */
export function combineRoute(
  rules: RouteDecision,
  guess: RouteGuess | null,
  options: {
    definite?: string | null;
    definiteTrend?: string | null;
    assertion?: boolean;
    now?: string | null;
    /** Whether the question has a word of the present at all (see PRESENT_WORDS); unknown counts as yes. */
    present?: boolean;
    trust?: number;
  } = {},
): RouteDecision {
  if (!guess) return rules;
  const learned = `classifier: ${guess.route} (p ${guess.confidence.toFixed(2)})`;
  if (options.now) {
    return {
      ...rules,
      route: 'current_world',
      reasons: [`asks about the present ("${options.now}"): no stored paper answers it`, learned],
      classifier: guess,
    };
  }
  // A route the planner decides (the question's cue and its subject are both there): trend first, then bibliometric.
  const planned = options.definiteTrend
    ? { route: 'trend' as const, why: options.definiteTrend }
    : options.definite
      ? { route: 'bibliometric' as const, why: options.definite }
      : null;
  if (planned)
    return { ...rules, route: planned.route, reasons: [`planner: ${planned.why}`, learned], classifier: guess };
  const hasCue = !rules.reasons.some((reason) => reason.startsWith('no bibliometric'));
  if (guess.route === 'current_world' && options.present === false && rules.route !== 'current_world')
    return {
      ...rules,
      reasons: [...rules.reasons, `${learned}, without a word of the present: the rules decide`],
      classifier: guess,
    };
  const trusted = guess.confidence >= (options.trust ?? CLASSIFIER_TRUST);
  // With no cue of the present, an unsure guess of the current world stays on content: a question the stored papers
  // can answer ("what makes X hard to bring to market?") is not refused for sounding like news.
  const unsureNow = !trusted && !hasCue && guess.route === 'current_world';
  if (trusted || (!hasCue && !options.assertion && !unsureNow)) {
    return {
      ...rules,
      route: guess.route,
      reasons: [learned, `rules said ${rules.route}: ${rules.reasons.join('; ')}`],
      classifier: guess,
    };
  }
  return {
    ...rules,
    reasons: [
      ...rules.reasons,
      `${learned}, under ${CLASSIFIER_TRUST}: the rules decide${hasCue ? '' : unsureNow ? ' (no cue of the present)' : ' (an assertion to check)'}`,
    ],
    classifier: guess,
  };
}

/** The route by the offline rules and the embedding classifier, or as the caller forced it. */
export function routeStage(deps: AskDependencies): Stage<AskRequest, Routed> {
  return {
    name: 'route',
    run: async (state) => {
      // The question as a search query: the evidence pool scores passages against it.
      const [questionVector] = await (await deps.embedder()).embed([state.question], 'query');
      const rules = routeQuestion(state.question);
      const forced = state.options.route;
      if (forced) {
        return {
          ...state,
          questionVector: questionVector!,
          decision: { ...rules, route: forced, reasons: ['route given by the caller'] },
        };
      }
      let guess: RouteGuess | null = null;
      if (deps.routeClassifier) {
        try {
          // The classifier reads the question as the rules do: titles are "the paper", sources masked (routingText).
          const masked = routingText(state.question);
          const vector =
            masked === state.question ? questionVector! : (await (await deps.embedder()).embed([masked], 'query'))[0]!;
          guess = (await deps.routeClassifier()).predict(vector);
        } catch (error) {
          state.trace.push({ stage: 'route', ms: 0, note: `classifier unavailable: ${(error as Error).message}` });
        }
      }
      return {
        ...state,
        questionVector: questionVector!,
        decision: combineRoute(rules, guess, routeOptions(state.question, rules)),
      };
    },
    note: (state) => `${state.decision.route}: ${state.decision.reasons.join('; ')}`,
  };
}

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
