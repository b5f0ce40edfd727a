/** A plan carried out: the filter its question names, then the operation, by family (see the modules it imports). */
import type { AskDependencies, Gathered } from '../../ask-types';
import { type AnalyticsPlan, describePlan } from '../../plan-schema';
import { countryName } from '../../plan-places';
import { comparePeople, comparePeriods, compareTopics, compareTopicsTrend } from './comparisons';
import { type Found, filterOf, type Outcome, type PlanContext, scopeOf, yearsText } from './outcome';
import { citationPath, citedWorks, relatedPapers } from './paper-answers';
import { personAnswer } from './people-answers';
import {
  bradford,
  bursts,
  disruptive,
  lotka,
  mainPath,
  normalisedImpact,
  researchFronts,
  sleepingBeauties,
} from './science-answers';
import { countPapers, topAuthors, topCountries, topInstitutions, topPapers, topVenues } from './topic-lists';
import { collaboration, emerging, trend } from './trend-answers';

/**
 * Carries out a plan: resolves the venue, institution and country the question names into a filter, then runs the
 * operation — comparisons, a paper's citations or relations, a person's metrics or co-authors, or an operation over
 * every paper on the topic.
 */
export async function runPlan(
  deps: AskDependencies,
  state: Gathered,
  plan: AnalyticsPlan,
  found: Found,
): Promise<Outcome> {
  const { analytics } = deps;
  // A venue named in the question filters the papers (the largest venue of that name).
  let venue: { id: string; name: string } | null = null;
  if (plan.venue) {
    const [match] = await analytics.venuesByName(plan.venue, 1);
    if (!match) return { refusal: `no venue in the graph is named like "${plan.venue}"` };
    venue = match;
    found.entities.push({
      kind: 'venue',
      text: plan.venue,
      id: match.id,
      label: match.name,
      how: 'the largest venue of that name',
    });
  }
  // An institution named in the question filters the papers to those with an author affiliated there (the best match
  // of the name); a country, to those with an author affiliated in it.
  let institution: { id: string; name: string } | null = null;
  if (plan.institution) {
    const [match] = await deps.catalog.names.institutionsNamed(plan.institution, 1);
    if (!match) return { refusal: `no institution in the graph is named like "${plan.institution}"` };
    institution = { id: match.institution.id, name: match.institution.name ?? match.institution.id };
    found.entities.push({
      kind: 'institution',
      text: plan.institution,
      id: institution.id,
      label: institution.name,
      how: 'the best match of the name',
    });
  }
  if (plan.country)
    found.entities.push({
      kind: 'country',
      text: plan.country,
      id: plan.country,
      label: countryName(plan.country),
      how: 'ISO 3166 code: papers with an author affiliated there',
    });
  const filter = filterOf(state, plan, venue ? [venue.id] : null, institution ? [institution.id] : null);
  const scope = scopeOf(venue?.name ?? null, institution?.name ?? null, plan.country);

  const ctx: PlanContext = { deps, state, plan, found, filter, venue, scope };
  switch (plan.operation) {
    case 'compare_people':
      return comparePeople(ctx);
    case 'compare_topics':
      return compareTopics(ctx);
    case 'compare_periods':
      return comparePeriods(ctx);
    case 'compare_topics_trend':
      return compareTopicsTrend(ctx);
    case 'citation_path':
      return citationPath(deps, state, plan, found);
    case 'derivative_works':
    case 'prior_works':
      return citedWorks(ctx);
    case 'author_metrics':
    case 'coauthors':
      return personAnswer(ctx);
    case 'related_papers':
      return relatedPapers(ctx);
    default:
      return topicOperation(ctx);
  }
}

/** An operation over every paper on the topic, not the top hits of a search. */
async function topicOperation(ctx: PlanContext): Promise<Outcome> {
  const { deps, plan, found, filter, scope: venueName } = ctx;
  const { analytics } = deps;
  if (!plan.topic) return { refusal: 'the question names no topic to count papers on' };
  const set = found.topic(await analytics.topics.topicSet(plan.topic, filter));
  if (set.papers.length === 0) {
    return { refusal: `no paper in the graph matches the topic "${plan.topic}"${yearsText(plan)} (${set.rule})` };
  }
  switch (plan.operation) {
    case 'count_papers':
      return countPapers(ctx, set);
    case 'top_papers':
      return topPapers(ctx, set);
    case 'top_authors':
      return topAuthors(ctx, set);
    case 'top_venues':
      return topVenues(ctx, set);
    case 'top_institutions':
      return topInstitutions(ctx, set);
    case 'top_countries':
      return topCountries(ctx, set);
    case 'lotka':
      return lotka(deps, set, plan, venueName);
    case 'bradford':
      return bradford(deps, set, plan, venueName);
    case 'disruptive_papers':
      return disruptive(deps, set, plan, venueName);
    case 'sleeping_beauties':
      return sleepingBeauties(deps, set, plan, venueName);
    case 'main_path':
      return mainPath(deps, set, plan, venueName);
    case 'research_fronts':
      return researchFronts(deps, set, plan, venueName);
    case 'topic_bursts':
      return bursts(deps, set, plan, venueName);
    case 'normalised_impact':
      return normalisedImpact(deps, set, plan, venueName);
    case 'topic_trend':
      return trend(deps, set, plan, venueName);
    case 'emerging_topics':
      return emerging(deps, set, plan, venueName);
    case 'collaboration_network':
      return collaboration(deps, set, plan, venueName);
    default:
      return { refusal: `the plan ${describePlan(plan)} has no computation` };
  }
}
