/**
 * The typed plan of a bibliometric or trend question: its operations, its schema (an LLM's plan is checked against it
 * too) and its description.
 */
import { z } from 'zod';

/** What a bibliometric or trend question asks to be computed. */
export const PLAN_OPERATIONS = [
  'count_papers',
  'top_papers',
  'top_authors',
  'top_venues',
  'top_institutions',
  'coauthors',
  'author_metrics',
  'related_papers',
  'topic_trend',
  'emerging_topics',
  'collaboration_network',
  'derivative_works',
  'prior_works',
  'compare_topics',
  'compare_people',
  'compare_periods',
  'compare_topics_trend',
  'top_countries',
  'lotka',
  'bradford',
  'disruptive_papers',
  'citation_path',
  'sleeping_beauties',
  'main_path',
  'research_fronts',
  'topic_bursts',
  'normalised_impact',
] as const;
export type PlanOperation = (typeof PLAN_OPERATIONS)[number];

/** How a paper's neighbours are found for `related_papers`. */
export type PaperRelation = 'cocited' | 'coupled' | 'related';

/** Operations about a person (they need `person`). */
export const PERSON_OPERATIONS: ReadonlySet<PlanOperation> = new Set(['coauthors', 'author_metrics', 'compare_people']);
/** Operations about one paper (they need `paper`). */
export const PAPER_OPERATIONS: ReadonlySet<PlanOperation> = new Set([
  'related_papers',
  'derivative_works',
  'prior_works',
  'citation_path',
]);
/** Every other operation is about a topic (the whole graph when none is named). */
export const TOPIC_OPERATIONS: ReadonlySet<PlanOperation> = new Set(
  PLAN_OPERATIONS.filter((op) => !PERSON_OPERATIONS.has(op) && !PAPER_OPERATIONS.has(op)),
);

/**
 * A typed plan: the operation, its subject (a topic phrase without question words, a person, a paper by title or DOI)
 * and filters. The rules make one offline; an LLM may make one, checked against the same schema.
 */
export const planSchema = z
  .object({
    operation: z.enum(PLAN_OPERATIONS),
    topic: z.string().trim().min(1).max(200).nullable(),
    person: z.string().trim().min(1).max(120).nullable(),
    paper: z.string().trim().min(1).max(400).nullable(),
    relation: z.enum(['cocited', 'coupled', 'related']).nullable(),
    yearFrom: z.number().int().min(1000).max(2200).nullable(),
    yearTo: z.number().int().min(1000).max(2200).nullable(),
    /**
     * A window counted back from the last year the counted papers cover ("in recent years", "lately": 3); yearFrom and
     * yearTo are set from it when the plan runs.
     */
    lastYears: z.number().int().min(1).max(100).nullable().default(null),
    venue: z.string().trim().min(1).max(200).nullable(),
    /** An institution the question restricts to, as named ("at Harvard University"). */
    institution: z.string().trim().min(1).max(200).nullable().default(null),
    /** A country the question restricts to (ISO 3166 alpha-2: papers with an author affiliated there). */
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .nullable()
      .default(null),
    citationBasis: z.enum(['internal', 'global']),
    /** How a ranking of authors is ordered: by their papers on the topic, or by the citations of those papers. */
    rankBy: z.enum(['papers', 'citations']).default('papers'),
    /**
     * A first step that finds the subject on the topic: its most prolific author, its most cited author, or its most
     * cited paper; the operation then runs on that person or paper.
     */
    firstStep: z.enum(['most_prolific_author', 'most_cited_author', 'most_cited_paper']).nullable().default(null),
    /** The other topic or person of a comparison (compare_topics, compare_people). */
    second: z.string().trim().min(1).max(200).nullable().default(null),
    /** The two windows of compare_periods. */
    periods: z
      .array(
        z.object({ from: z.number().int().min(1000).max(2200), to: z.number().int().min(1000).max(2200) }).strict(),
      )
      .length(2)
      .nullable()
      .default(null),
  })
  .strict();
export type PlanFields = z.infer<typeof planSchema>;

export interface AnalyticsPlan extends PlanFields {
  /** Who made the plan. */
  readonly source: 'rules' | 'llm';
  /** Which cue chose the operation, for the trace. */
  readonly reason: string;
}

/** The plan as one line, for the trace and answers. */
export function describePlan(plan: AnalyticsPlan): string {
  const subject = plan.topic
    ? `topic "${plan.topic}"`
    : plan.person
      ? `person "${plan.person}"`
      : plan.paper
        ? `paper "${plan.paper.slice(0, 80)}"`
        : 'the whole graph';
  const years =
    plan.yearFrom !== null || plan.yearTo !== null
      ? `, years ${plan.yearFrom ?? '…'}–${plan.yearTo ?? '…'}`
      : plan.lastYears
        ? `, the last ${plan.lastYears} years the papers cover`
        : '';
  return `${plan.operation}${plan.relation ? ` (${plan.relation})` : ''} of ${subject}${years}${plan.venue ? `, journal "${plan.venue}"` : ''}; ${plan.source}: ${plan.reason}`;
}
