import type { Settings } from '../config/settings';
import { settingsHash } from '../config/settings';
import { cosine, type Embedder } from '../embedding/embedder';
import type { Evidence, WorkRecord } from '../domain';
import { badInput, CitegraphError, ErrorCode } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import { queries } from '../graph/query-registry';
import type { AnalyticsService } from '../analytics/analytics-service';
import type { FetchService } from '../external/fetch-service';
import type { ProviderName } from '../external/provider-base';
import { extractiveAnswer } from '../generation/extractive';
import { parseJsonObject } from '../generation/llm';
import type { ChatMessage, RequestContext } from '../request-context';
import { answerClaims, verifyAnswer, type VerifiedCitation, type VerifiedSentence } from '../generation/verify';
import type { IngestService } from '../ingest/ingest-service';
import { contentTerms } from '../text';
import type { SearchService } from '../retrieval/search-service';
import type { DocumentFrequencies } from '../retrieval/expansion';
import {
  buildContext,
  findContradictions,
  passesDriftGuard,
  scoreEvidence,
  scoreSufficiency,
  type Sufficiency,
} from './evidence';
import { type Route, type RouteDecision, routeQuestion, ROUTES } from './router';

export interface AskOptions {
  /** Restrict evidence to these collections. */
  collections?: string[] | null;
  /** Force a route instead of classifying. */
  route?: Route | null;
  externalSearch?: boolean | null;
  graphExpansion?: boolean | null;
  /** Use the LLM when one is configured (default true). */
  useLlm?: boolean | null;
  maxSubQueries?: number | null;
}

export interface SubQuery {
  text: string;
  queryClass: 'precise_fact' | 'broad_synthesis' | 'reasoning';
  domain: string | null;
  evidenceCount: number;
}

export interface StageTrace {
  stage: string;
  ms: number;
  note: string;
}

export interface AskResult {
  question: string;
  answer: string;
  sentences: Array<VerifiedSentence & { citations: Array<VerifiedCitation & { paper: Evidence['paper'] }> }>;
  bibliography: Array<{ marker: number; paper: Evidence['paper']; doiUrl: string | null; evidenceId: string }>;
  route: Route;
  routeReasons: string[];
  rewrite: string;
  subQueries: SubQuery[];
  sufficiency: Sufficiency;
  abstained: boolean;
  abstentionReason: string | null;
  evidence: Evidence[];
  externalSearches: Array<{ query: string; source: ProviderName; found: number; kept: number; error: string | null }>;
  gaps: string[];
  contradictions: Array<{ a: string; b: string; similarity: number; note: string }>;
  droppedSentences: Array<{ text: string; reason: string }>;
  generator: 'extractive' | 'llm' | 'bibliometric' | 'trend' | 'none';
  sourceNote: string | null;
  trace: StageTrace[];
  cost: {
    llmCalls: number;
    promptTokens: number;
    completionTokens: number;
    apiCalls: Array<{ provider: string; calls: number }>;
    estimatedUsd: number;
  };
  settingsHash: string;
}

export interface AskDependencies {
  settings: Settings;
  executor: GraphExecutor;
  search: SearchService;
  analytics: AnalyticsService;
  external: FetchService;
  ingest: IngestService;
  embedder: () => Promise<Embedder>;
}

/** Mutable state the stages fill in, in order. */
interface AskState {
  question: string;
  options: AskOptions;
  started: number;
  trace: StageTrace[];
  decision: RouteDecision;
  rewrite: string;
  subQueries: SubQuery[];
  pool: Map<string, Evidence>;
  questionVector: Float32Array;
  sufficiency: Sufficiency;
  externalSearches: AskResult['externalSearches'];
  gaps: string[];
  contradictions: AskResult['contradictions'];
  ctx: RequestContext;
}

const PAPER_LIMIT_PER_QUERY = 8;

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

/** Bibliometric and trend framing ("who", "most cited papers", "over time"): what is counted, not what about. */
const COUNTING =
  /\b(?:who|whom|which|authors?|researchers?|groups?|papers?|articles?|publications?|studies|works?|most|top|cited|citations?|count|number|how many|prolific|wrote|written|published|research|trends?|over time|per year|by year|changed?|grown?|growth|since|years?|decades?|history|\d{4})\b/gi;

/** The topic of a bibliometric or trend question: its content terms without the counting framing. */
export function topicOf(question: string): string {
  return contentTerms(question.replace(COUNTING, ' ')).join(' ');
}

/** Keeps only the words of an LLM-proposed query that come from the question or exist in the corpus vocabulary. */
export function constrainQuery(proposed: string, question: string, vocabulary: DocumentFrequencies): string {
  const own = new Set(contentTerms(question));
  return contentTerms(proposed)
    .filter((term) => own.has(term) || vocabulary.df(term) > 0)
    .join(' ');
}

/**
 * The question pipeline: route, rewrite, retrieve, score sufficiency, retry, search outside, vet, expand over the
 * graph, build the context, check it, generate, verify every citation, abstain when the evidence is not there, and
 * account for time and cost. Each stage records its time and a note in the trace.
 */
export class AskService {
  constructor(private readonly deps: AskDependencies) {}

  async ask(ctx: RequestContext, question: string, options: AskOptions = {}): Promise<AskResult> {
    const trimmed = question.trim();
    if (contentTerms(trimmed).length === 0) throw badInput('the question has no searchable words');
    if (trimmed.length > 2000) throw badInput('the question is longer than 2,000 characters');
    if (options.route && !ROUTES.includes(options.route)) throw badInput(`route must be one of ${ROUTES.join(', ')}`);
    const state = {
      question: trimmed,
      options,
      started: Date.now(),
      trace: [],
      pool: new Map(),
      externalSearches: [],
      gaps: [],
      contradictions: [],
      ctx: ctx.fork({ useLlm: options.useLlm }),
    } as unknown as AskState;

    await this.stage(state, 'route', () => this.route(state));
    await this.stage(state, 'rewrite', () => this.rewrite(state));
    state.questionVector = (await (await this.deps.embedder()).embed([trimmed]))[0]!;

    if (state.decision.route === 'bibliometric' || state.decision.route === 'trend') {
      const answered = await this.stage(state, state.decision.route, () =>
        state.decision.route === 'trend' ? this.trendAnswer(state) : this.bibliometricAnswer(state),
      );
      if (answered) return answered;
      // Nothing countable matched: fall through to a content answer.
    }

    await this.stage(state, 'retrieve', () =>
      this.retrieve(
        state,
        state.subQueries.map((s) => s.text),
        'local',
      ),
    );
    await this.stage(state, 'sufficiency', async () => this.score(state));

    let retries = 0;
    while (
      state.sufficiency.band === 'WEAK' &&
      retries < this.deps.settings.evidence.retries &&
      state.decision.route !== 'current_world'
    ) {
      retries += 1;
      await this.stage(state, 'retry', () => this.retry(state));
      this.score(state);
    }

    const wantExternal =
      (options.externalSearch ?? this.deps.settings.evidence.externalSearch) &&
      (state.decision.route === 'current_world' || state.sufficiency.band === 'WEAK');
    if (wantExternal) {
      await this.stage(state, 'external', () => this.externalSearch(state));
      this.score(state);
    }

    if ((options.graphExpansion ?? true) && state.pool.size > 0) {
      await this.stage(state, 'graph_expansion', () => this.expandOverGraph(state));
      this.score(state);
    }
    return this.compose(state);
  }

  private async stage<T>(state: AskState, name: string, work: () => Promise<T> | T): Promise<T> {
    const started = process.hrtime.bigint();
    const note: string[] = [];
    try {
      return await work();
    } catch (error) {
      // A failing stage weakens the answer; it is reported, not fatal (bad input still is).
      if (error instanceof CitegraphError && error.code === 'BAD_USER_INPUT') throw error;
      note.push(`failed: ${(error as Error).message}`);
      return undefined as T;
    } finally {
      state.trace.push({
        stage: name,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        note: note.join('; ') || this.noteFor(state, name),
      });
    }
  }

  private noteFor(state: AskState, stage: string): string {
    switch (stage) {
      case 'route':
        return `${state.decision.route}: ${state.decision.reasons.join('; ')}`;
      case 'rewrite':
        return `${state.subQueries.length} sub-queries`;
      case 'retrieve':
      case 'retry':
      case 'graph_expansion':
        return `${state.pool.size} passages in the pool`;
      case 'sufficiency':
        return state.sufficiency ? `${state.sufficiency.score} ${state.sufficiency.band}` : '';
      case 'external':
        return state.externalSearches.map((s) => `${s.source}: ${s.error ?? `${s.kept}/${s.found} kept`}`).join(', ');
      default:
        return '';
    }
  }

  // ------------------------------------------------------------------------------------------------------- stages

  private async route(state: AskState): Promise<void> {
    const decision = routeQuestion(state.question);
    if (state.options.route) {
      state.decision = { ...decision, route: state.options.route, reasons: ['route given by the caller'] };
      return;
    }
    state.decision = decision;
    if (state.ctx.llm) {
      try {
        const result = await this.chat(
          state,
          [
            {
              role: 'system',
              content:
                'Classify the research question. Answer JSON {"route": "content"|"bibliometric"|"trend"|"current_world"}. bibliometric: about authors, counts, citations, venues. trend: change over years. current_world: news, markets, regulation, this year. content: what the literature says.',
            },
            { role: 'user', content: state.question },
          ],
          true,
        );
        const route = parseJsonObject(result).route;
        if (typeof route === 'string' && (ROUTES as readonly string[]).includes(route)) {
          state.decision = {
            ...decision,
            route: route as Route,
            reasons: [`LLM classifier (rules said ${decision.route})`],
          };
        }
      } catch (error) {
        state.decision = {
          ...decision,
          reasons: [...decision.reasons, `LLM classifier failed: ${(error as Error).message}`],
        };
      }
    }
  }

  private async rewrite(state: AskState): Promise<void> {
    const max = Math.min(5, state.options.maxSubQueries ?? 5);
    const offline = decompose(state.question, max);
    let rewrite = offline.rewrite;
    let texts = offline.subQueries;
    if (state.ctx.llm) {
      try {
        const result = parseJsonObject(
          await this.chat(
            state,
            [
              {
                role: 'system',
                content: `Rewrite the research question as a technically explicit search query and up to ${max} sub-queries. Use only terms from the question or standard technical vocabulary; never invent titles, names or numbers. JSON {"rewrite": string, "subQueries": string[]}`,
              },
              { role: 'user', content: state.question },
            ],
            true,
          ),
        );
        const vocabulary = await this.deps.search.documentFrequencies(state.options.collections ?? null);
        const constrained = [
          String(result.rewrite ?? ''),
          ...(Array.isArray(result.subQueries) ? result.subQueries.map(String) : []),
        ]
          .map((query) => constrainQuery(query, state.question, vocabulary))
          .filter((query) => query.length > 0);
        if (constrained.length > 0) {
          rewrite = constrained[0]!;
          texts = [...new Set(constrained)].slice(0, max);
        }
      } catch {
        // The offline decomposition stands.
      }
    }
    state.rewrite = rewrite;
    state.subQueries = texts.map((text) => ({
      text,
      queryClass: classify(state.question),
      domain: null,
      evidenceCount: 0,
    }));
  }

  private async evidenceFromPapers(
    state: AskState,
    paperIds: string[],
    source: Evidence['source'],
    foundBy: string,
  ): Promise<number> {
    if (paperIds.length === 0) return 0;
    const passages = await this.deps.search.passages(paperIds, state.questionVector, 2);
    const meta = await this.deps.executor.read<Evidence['paper'] & { id: string }>(
      queries().evidencePapers({ ids: paperIds }),
    );
    const papers = new Map(meta.map((row) => [row.id, row]));
    let added = 0;
    for (const [paperId, list] of passages) {
      const paper = papers.get(paperId);
      if (!paper) continue;
      for (const passage of list) {
        const similarity = 2 * passage.score - 1;
        const existing = state.pool.get(passage.chunkId);
        if (existing) {
          if (!existing.foundBy.includes(foundBy)) existing.foundBy.push(foundBy);
          continue;
        }
        state.pool.set(passage.chunkId, {
          id: passage.chunkId,
          paperId,
          chunkId: passage.chunkId,
          text: passage.text,
          start: passage.start,
          end: passage.end,
          similarity,
          score: scoreEvidence(similarity, `${paper.title ?? ''} ${passage.text}`, state.question),
          source,
          foundBy: [foundBy],
          paper: {
            id: paperId,
            title: paper.title,
            year: paper.year,
            doi: paper.doi,
            venue: paper.venue,
            authors: paper.authors,
            source: paper.source,
            fetchedAt: paper.fetchedAt,
          },
        });
        added += 1;
      }
    }
    return added;
  }

  private async retrieve(state: AskState, texts: string[], source: Evidence['source']): Promise<void> {
    for (const text of texts) {
      if (contentTerms(text).length === 0) continue;
      const response = await this.deps.search.search(
        state.ctx,
        text,
        PAPER_LIMIT_PER_QUERY,
        { collections: state.options.collections ?? null },
        { passages: 0 },
      );
      const added = await this.evidenceFromPapers(
        state,
        response.results.map((r) => r.paper.id),
        source,
        text,
      );
      const sub = state.subQueries.find((s) => s.text === text);
      if (sub) sub.evidenceCount += added;
    }
    const domain = await this.domainTag([...state.pool.values()].map((e) => e.paperId).slice(0, 10));
    for (const sub of state.subQueries) sub.domain = domain;
  }

  private async domainTag(paperIds: string[]): Promise<string | null> {
    if (paperIds.length === 0) return null;
    const counts = new Map<string, number>();
    for (const id of [...new Set(paperIds)].slice(0, 5)) {
      const rows = await this.deps.executor.read<{ topic: { name: string; level: number } }>(
        queries().paperTopics({ id, limit: 5 }),
      );
      for (const row of rows)
        if (row.topic.level >= 1) counts.set(row.topic.name, (counts.get(row.topic.name) ?? 0) + 1);
    }
    return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? null;
  }

  private score(state: AskState): void {
    state.sufficiency = scoreSufficiency(
      state.question,
      [...state.pool.values()],
      state.decision.route,
      this.deps.settings.evidence,
    );
  }

  /** Reformulates from what was missing: the question's terms the evidence lacks, with corpus-validated expansion. */
  private async retry(state: AskState): Promise<void> {
    const specificity = state.sufficiency.dimensions.find((d) => d.name === 'answer_specificity');
    const missing = /missing: ([^)]*)/.exec(specificity?.reason ?? '')?.[1]?.split(', ') ?? [];
    const reformulated = [...new Set([...missing, ...contentTerms(state.rewrite)])].join(' ');
    if (!passesDriftGuard(state.question, reformulated, this.deps.settings.evidence.driftGuard)) return;
    const response = await this.deps.search.search(
      state.ctx,
      reformulated,
      PAPER_LIMIT_PER_QUERY,
      { collections: state.options.collections ?? null },
      { passages: 0, expansion: true },
    );
    await this.evidenceFromPapers(
      state,
      response.results.map((r) => r.paper.id),
      'local',
      `retry: ${reformulated}`,
    );
  }

  private attemptsFor(route: Route): number {
    const e = this.deps.settings.evidence;
    return route === 'current_world'
      ? e.externalAttemptsCurrent
      : route === 'bibliometric'
        ? e.externalAttemptsBibliometric
        : e.externalAttemptsContent;
  }

  /** Searches the scholarly APIs, vets what comes back against the question, writes it to the graph, retrieves it. */
  private async externalSearch(state: AskState): Promise<void> {
    const sources: ProviderName[] = ['openalex', 's2', 'crossref'];
    const attempts = this.attemptsFor(state.decision.route);
    const embedder = await this.deps.embedder();
    const kept: WorkRecord[] = [];
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      const source = sources[attempt % sources.length]!;
      const query =
        state.subQueries[Math.floor(attempt / sources.length) % state.subQueries.length]?.text ?? state.rewrite;
      const report = await this.deps.external.fetch(state.ctx, { search: query, sources: [source], cap: 10 });
      const entry = report.perSource[0]!;
      const candidates = report.merged.map((m) => m.record).filter((r) => r.title);
      let vetted: WorkRecord[] = [];
      if (candidates.length > 0) {
        const vectors = await embedder.embed(candidates.map((r) => `${r.title}. ${r.abstract ?? ''}`));
        vetted = candidates.filter(
          (_, index) => cosine(vectors[index]!, state.questionVector) >= this.deps.settings.evidence.vettingThreshold,
        );
        vetted = await this.llmVeto(state, vetted);
      }
      kept.push(...vetted);
      state.externalSearches.push({
        query,
        source,
        found: entry.found,
        kept: vetted.length,
        error: entry.error ? `${entry.error.code}: ${entry.error.message}` : null,
      });
      if (entry.error?.code === ErrorCode.EXTERNAL_UNREACHABLE) break; // offline: no other provider will resolve either
    }
    if (kept.length === 0) return;
    const written = await this.deps.ingest.writeFetched(kept);
    this.deps.search.invalidate();
    const paperIds = [...new Set(written.paperIds)];
    await this.evidenceFromPapers(state, paperIds, 'external', 'external search');
  }

  /** With an LLM, external papers it judges irrelevant to the question are vetoed. */
  private async llmVeto(state: AskState, records: WorkRecord[]): Promise<WorkRecord[]> {
    if (!state.ctx.llm || records.length === 0) return records;
    try {
      const list = records.map((r, index) => `${index}: ${r.title}`).join('\n');
      const result = parseJsonObject(
        await this.chat(
          state,
          [
            {
              role: 'system',
              content: 'Which of these papers could help answer the question? JSON {"keep": number[]}',
            },
            { role: 'user', content: `Question: ${state.question}\n${list}` },
          ],
          true,
        ),
      );
      const keep = new Set(Array.isArray(result.keep) ? result.keep.map(Number) : records.map((_, i) => i));
      return records.filter((_, index) => keep.has(index));
    } catch {
      return records;
    }
  }

  /** Adds passages of papers co-cited with, citing or cited by the strongest papers. */
  private async expandOverGraph(state: AskState): Promise<void> {
    const best = [...new Set([...state.pool.values()].sort((a, b) => b.score - a.score).map((e) => e.paperId))].slice(
      0,
      3,
    );
    const neighbours = new Set<string>();
    for (const id of best) {
      const [cocited, citedBy, references] = await Promise.all([
        this.deps.analytics.paperCocited(id, { skip: 0, limit: 3 }),
        this.deps.analytics.paperCitedBy(id, { skip: 0, limit: 2 }),
        this.deps.analytics.paperReferences(id, { skip: 0, limit: 2 }),
      ]);
      for (const row of cocited.items) if (!row.paper.stub) neighbours.add(row.paper.id);
      for (const paper of [...citedBy.items, ...references.items]) if (!paper.stub) neighbours.add(paper.id);
    }
    for (const id of best) neighbours.delete(id);
    await this.evidenceFromPapers(state, [...neighbours], 'graph', 'citation graph');
  }

  private async chat(state: AskState, messages: ChatMessage[], json = false): Promise<string> {
    if (!state.ctx.llm) throw new CitegraphError(ErrorCode.LLM_ERROR, 'no LLM for this request');
    const result = await state.ctx.llm.chat(messages, { json });
    return result.text;
  }

  // ------------------------------------------------------------------------------------- bibliometric and trend

  private async papersFor(state: AskState, first = 50): Promise<string[]> {
    const response = await this.deps.search.search(
      state.ctx,
      topicOf(state.question) || state.rewrite || state.question,
      first,
      { collections: state.options.collections ?? null },
      { passages: 0 },
    );
    return response.results.map((r) => r.paper.id);
  }

  /**
   * Whether papers a text query retrieved are about the question at all: counting them only makes sense if their
   * best passages are evidence (not WEAK). Otherwise the content path runs, and abstains if it must.
   */
  private async relevant(state: AskState, paperIds: string[]): Promise<boolean> {
    await this.evidenceFromPapers(state, paperIds.slice(0, 5), 'local', state.rewrite);
    const topic = topicOf(state.question) || state.rewrite;
    return (
      scoreSufficiency(topic, [...state.pool.values()], state.decision.route, this.deps.settings.evidence).band !==
      'WEAK'
    );
  }

  private async bibliometricAnswer(state: AskState): Promise<AskResult | null> {
    const sentences: Array<{ text: string; papers: string[] }> = [];
    for (const person of state.decision.people.slice(0, 2)) {
      const [match] = await this.deps.executor.read<{ author: { id: string; name: string }; papers: number }>(
        queries().authorsByName({ name: person, limit: 1 }),
      );
      if (!match) continue;
      const metrics = await this.deps.analytics.authorMetrics(match.author.id);
      const works = await this.deps.analytics.authorWorks(match.author.id, null, { skip: 0, limit: 3 });
      const coauthors = await this.deps.analytics.authorCoauthors(match.author.id, null, { skip: 0, limit: 3 });
      sentences.push({
        text: `${match.author.name} has ${metrics.works} papers in the graph (${metrics.firstYear ?? '?'}–${metrics.lastYear ?? '?'}), with an h-index of ${metrics.hIndexInternal} from citations inside the graph and ${metrics.hIndexGlobal} from global citation counts (${metrics.citationsGlobal} citations in all).`,
        papers: works.items.map((p) => p.id),
      });
      if (coauthors.items.length > 0) {
        sentences.push({
          text: `Frequent co-authors: ${coauthors.items.map((c) => `${String(c.author.name)} (${c.joint} joint papers)`).join(', ')}.`,
          papers: works.items.slice(0, 1).map((p) => p.id),
        });
      }
    }
    if (sentences.length === 0) {
      const ids = await this.papersFor(state);
      if (ids.length === 0 || !(await this.relevant(state, ids))) return null;
      const meta = await this.deps.executor.read<{
        id: string;
        title: string;
        year: number;
        citedByCount: number;
        internalCitations: number;
      }>(queries().evidencePapers({ ids }));
      if (/\b(who|authors?|researchers|prolific|wrote)\b/i.test(state.question)) {
        const authors = await this.deps.executor.read<{ id: string; name: string; count: number; paperIds: string[] }>(
          queries().authorsOfPapers({ ids, limit: 5 }),
        );
        if (authors.length > 0) {
          sentences.push({
            text: `Among the ${ids.length} papers the graph holds on "${topicOf(state.question) || state.rewrite}", the authors with the most papers are ${authors.map((a) => `${a.name} (${a.count})`).join(', ')}.`,
            papers: [...new Set(authors.flatMap((a) => a.paperIds.slice(0, 1)))].slice(0, 5),
          });
        }
      }
      const global = /global|overall|world/i.test(state.question);
      const ranked = [...meta].sort((a, b) =>
        global
          ? b.citedByCount - a.citedByCount
          : b.internalCitations - a.internalCitations || b.citedByCount - a.citedByCount,
      );
      const top = ranked.slice(0, 3);
      sentences.push({
        text: `Of the ${ids.length} papers the graph holds on "${topicOf(state.question) || state.rewrite}", the most cited are ${top.map((p) => `"${p.title}" (${p.year ?? 'n.d.'}; ${p.internalCitations} citations inside the graph, ${p.citedByCount} in all)`).join(', ')}.`,
        papers: top.map((p) => p.id),
      });
    }
    return this.computedAnswer(state, sentences, 'bibliometric');
  }

  private async trendAnswer(state: AskState): Promise<AskResult | null> {
    const currentYear = new Date().getFullYear();
    const from = state.decision.years.from ?? 1990;
    const to = Math.min(state.decision.years.to ?? currentYear, currentYear);
    const trend = await this.deps.analytics.queryTrend(
      state.ctx,
      topicOf(state.question) || state.rewrite || state.question,
      from,
      to,
      { collections: state.options.collections ?? null },
    );
    if (trend.total === 0 || !(await this.relevant(state, trend.paperIds))) return null;
    const peak = [...trend.points].sort((a, b) => b.count - a.count || b.year - a.year)[0]!;
    const active = trend.points.filter((p) => p.count > 0);
    const first = active[0]!;
    const last = active[active.length - 1]!;
    const half = Math.floor(trend.points.length / 2);
    const early = trend.points.slice(0, half).reduce((s, p) => s + p.count, 0);
    const late = trend.points.slice(half).reduce((s, p) => s + p.count, 0);
    const sentences = [
      {
        text: `Among the ${trend.total} papers that best match "${topicOf(state.question) || state.rewrite}" between ${from} and ${to}, publication runs from ${first.year} to ${last.year} and peaks in ${peak.year} with ${peak.count} papers.`,
        papers: trend.paperIds.slice(0, 3),
      },
      {
        text: `The later half of the period has ${late} papers against ${early} in the earlier half${trend.cagr !== null ? `, a compound annual growth of ${(100 * trend.cagr).toFixed(1)}%` : ''}.`,
        papers: trend.paperIds.slice(0, 1),
      },
    ];
    return this.computedAnswer(
      state,
      sentences,
      'trend',
      trend.points
        .filter((p) => p.count > 0)
        .map((p) => `${p.year}: ${p.count}`)
        .join(', '),
    );
  }

  /** An answer made of computed figures; each sentence cites the papers it counted. */
  private async computedAnswer(
    state: AskState,
    sentences: Array<{ text: string; papers: string[] }>,
    generator: 'bibliometric' | 'trend',
    extra?: string,
  ): Promise<AskResult> {
    const allPapers = [...new Set(sentences.flatMap((s) => s.papers))];
    await this.evidenceFromPapers(state, allPapers, 'local', 'counted papers');
    this.score(state);
    const firstEvidence = new Map<string, Evidence>();
    for (const e of [...state.pool.values()].sort((a, b) => b.score - a.score))
      if (!firstEvidence.has(e.paperId)) firstEvidence.set(e.paperId, e);
    const numbers = new Map<string, number>();
    const verified = sentences.map((sentence) => ({
      text: sentence.text,
      citations: sentence.papers
        .map((paperId) => firstEvidence.get(paperId))
        .filter((e): e is Evidence => e !== undefined)
        .map((e) => {
          if (!numbers.has(e.id)) numbers.set(e.id, numbers.size + 1);
          return {
            marker: numbers.get(e.id)!,
            evidenceId: e.id,
            paperId: e.paperId,
            chunkId: e.chunkId,
            quote: e.paper.title ?? e.text.slice(0, 120),
            start: e.start,
            end: e.end,
            supportScore: 1,
            method: 'computed' as const,
          };
        }),
    }));
    const answer =
      verified
        .map(
          (s) =>
            `${s.text.replace(/\.$/, '')}${s.citations.length ? ` ${[...new Set(s.citations.map((c) => `[${c.marker}]`))].join('')}` : ''}.`,
        )
        .join(' ') + (extra ? ` Papers per year: ${extra}.` : '');
    const bibliography = [...numbers.entries()].map(([evidenceId, marker]) => ({
      marker,
      evidenceId,
      paperId: state.pool.get(evidenceId)!.paperId,
    }));
    return this.result(state, {
      answer,
      sentences: verified,
      bibliography,
      dropped: [],
      generator,
      abstained: false,
      reason: null,
      sourceNote: 'Figures computed from the citegraph graph; the cited papers are those counted.',
    });
  }

  // -------------------------------------------------------------------------------------------- compose content

  private async compose(state: AskState): Promise<AskResult> {
    const settings = this.deps.settings;
    const embedder = await this.deps.embedder();
    let passageVectors = new Map<string, Float32Array>();
    const context = await this.stage(state, 'context', () =>
      buildContext(
        [...state.pool.values()],
        settings.generation.contextTokens,
        (text) => embedder.tokenizer.count(text),
        settings.evidence.minEvidenceScore,
      ),
    );
    await this.stage(state, 'precheck', async () => {
      state.gaps = state.subQueries
        .filter(
          (sub) =>
            ![...state.pool.values()].some(
              (e) => e.foundBy.includes(sub.text) && e.score >= settings.evidence.minEvidenceScore,
            ),
        )
        .map((sub) => `no evidence for "${sub.text}"`);
      const ordered = context?.ordered ?? [];
      // The chunks' stored embeddings (title + passage, computed at ingest) stand for the passages.
      const rows =
        ordered.length > 0
          ? await this.deps.executor.read<{ id: string; embedding: number[] }>(
              queries().chunkEmbeddings({ ids: ordered.map((e) => e.id) }),
            )
          : [];
      const byId = new Map<string, Float32Array>(rows.map((row) => [row.id, Float32Array.from(row.embedding)]));
      const missing = ordered.filter((e) => !byId.has(e.id));
      if (missing.length > 0)
        (await embedder.embed(missing.map((e) => e.text))).forEach((vector, i) => byId.set(missing[i]!.id, vector));
      passageVectors = byId;
      state.contradictions = findContradictions(ordered, (a, b) =>
        byId.get(a.id) && byId.get(b.id) ? cosine(byId.get(a.id)!, byId.get(b.id)!) : 0,
      );
    });
    const ordered = context?.ordered ?? [];
    const abstain = state.sufficiency.score < settings.evidence.abstainBelow || ordered.length === 0;
    if (abstain) {
      return this.result(state, {
        answer: '',
        sentences: [],
        bibliography: [],
        dropped: [],
        generator: 'none',
        abstained: true,
        reason: this.abstentionReason(state),
        sourceNote: null,
      });
    }
    const labels = new Map(ordered.map((e, index) => [`E${index + 1}`, e.id]));
    const labelOf = (label: string) => labels.get(label.startsWith('E') ? label : `E${label}`);
    const labelFor = (e: Evidence) => `E${ordered.indexOf(e) + 1}`;
    const pool = new Map(ordered.map((e) => [e.id, e]));
    let generator: AskResult['generator'] = 'extractive';
    let draft = '';
    const generation = await this.stage(state, 'generate', async () => {
      if (state.ctx.llm) {
        try {
          const evidenceText = ordered
            .map((e) => `[${labelFor(e)}] (${e.paper.title ?? e.paperId}, ${e.paper.year ?? 'n.d.'}) ${e.text}`)
            .join('\n\n');
          draft = await this.chat(state, [
            {
              role: 'system',
              content:
                'Answer the research question only from the evidence. After every factual sentence cite the evidence it rests on as [E1], [E2]. Use only the given labels. If the evidence does not answer the question, say so.',
            },
            { role: 'user', content: `Question: ${state.question}\n\nEvidence:\n${evidenceText}` },
          ]);
          generator = 'llm';
          return;
        } catch (error) {
          state.trace.push({
            stage: 'generate',
            ms: 0,
            note: `LLM failed, extractive instead: ${(error as Error).message}`,
          });
        }
      }
      draft = (
        await extractiveAnswer(state.question, ordered, labelFor, embedder, settings.generation.extractiveSentences)
      ).answer;
    });
    void generation;
    const verification = await this.stage(state, 'verify', async () => {
      // An extractive answer is made of verbatim quotes (exact alignment); only a model's sentences need the
      // embedding similarity of the semantic alignment, computed in one batch for the claims the verifier checks.
      let similarity: ((sentence: string, e: Evidence) => number) | undefined;
      if (generator === 'llm') {
        const claims = answerClaims(draft);
        const vectors = claims.length ? await embedder.embed(claims) : [];
        const claimVector = new Map(claims.map((claim, i) => [claim, vectors[i]!]));
        similarity = (sentence, e) => {
          const a = claimVector.get(sentence);
          const b = passageVectors.get(e.id);
          return a && b ? cosine(a, b) : 0;
        };
      }
      let result = verifyAnswer(draft, pool, labelOf, settings.evidence.supportThreshold, similarity);
      if (generator === 'llm' && result.dropped.length > 0 && result.sentences.length === 0) {
        // Regenerate once, extractively, when nothing the model wrote could be verified.
        draft = (
          await extractiveAnswer(state.question, ordered, labelFor, embedder, settings.generation.extractiveSentences)
        ).answer;
        generator = 'extractive';
        result = verifyAnswer(draft, pool, labelOf, settings.evidence.supportThreshold, similarity);
      }
      return result;
    });
    if (!verification || verification.sentences.filter((s) => s.citations.length > 0).length === 0) {
      return this.result(state, {
        answer: '',
        sentences: [],
        bibliography: [],
        dropped: verification?.dropped ?? [],
        generator,
        abstained: true,
        reason: `${this.abstentionReason(state)} No sentence of the draft answer could be verified against its cited passage.`,
        sourceNote: null,
      });
    }
    const external = ordered.filter((e) => e.source === 'external');
    const sourceNote =
      state.decision.route === 'current_world'
        ? external.length > 0
          ? `This answer comes from external sources (${[...new Set(state.externalSearches.filter((s) => s.kept > 0).map((s) => s.source))].join(', ')}) fetched ${external[0]!.paper.fetchedAt ?? 'now'}; the newest paper is from ${Math.max(...external.map((e) => e.paper.year ?? 0)) || 'an unknown year'}. Scholarly sources lag news by months.`
          : 'This is a question about the current world, but no external source could be reached: the answer rests on the local graph only and may be out of date.'
        : null;
    return this.result(state, {
      answer: verification.answer,
      sentences: verification.sentences,
      bibliography: verification.bibliography,
      dropped: verification.dropped,
      generator,
      abstained: false,
      reason: null,
      sourceNote,
    });
  }

  private abstentionReason(state: AskState): string {
    const best = [
      ...new Map(
        [...state.pool.values()].sort((a, b) => b.score - a.score).map((e) => [e.paperId, e] as const),
      ).values(),
    ]
      .sort((a, b) => b.score - a.score)
      .slice(0, 3);
    const searched = state.subQueries.map((s) => `"${s.text}"`).join(', ');
    const external = state.externalSearches.length
      ? ` External searches: ${state.externalSearches.map((s) => `${s.source} (${s.error ? 'failed' : `${s.kept} of ${s.found} kept`})`).join(', ')}.`
      : '';
    return `Insufficient evidence (score ${state.sufficiency.score}, ${state.sufficiency.band}). Searched the graph for ${searched}.${external} Best passages found: ${best.length ? best.map((e) => `"${e.paper.title ?? e.paperId}" (score ${e.score})`).join('; ') : 'none'}.`;
  }

  private result(
    state: AskState,
    parts: {
      answer: string;
      sentences: VerifiedSentence[];
      bibliography: Array<{ marker: number; evidenceId: string; paperId: string }>;
      dropped: Array<{ text: string; reason: string }>;
      generator: AskResult['generator'];
      abstained: boolean;
      reason: string | null;
      sourceNote: string | null;
    },
  ): AskResult {
    const paperOf = (evidenceId: string) => state.pool.get(evidenceId)!.paper;
    const { meter } = state.ctx;
    const g = this.deps.settings.generation;
    return {
      question: state.question,
      answer: parts.abstained ? `Insufficient evidence to answer. ${parts.reason ?? ''}`.trim() : parts.answer,
      sentences: parts.sentences.map((s) => ({
        ...s,
        citations: s.citations.map((c) => ({ ...c, paper: paperOf(c.evidenceId) })),
      })),
      bibliography: parts.bibliography.map((b) => {
        const paper = paperOf(b.evidenceId);
        return {
          marker: b.marker,
          paper,
          doiUrl: paper.doi ? `https://doi.org/${paper.doi}` : null,
          evidenceId: b.evidenceId,
        };
      }),
      route: state.decision.route,
      routeReasons: state.decision.reasons,
      rewrite: state.rewrite,
      subQueries: state.subQueries,
      sufficiency:
        state.sufficiency ??
        scoreSufficiency(state.question, [...state.pool.values()], state.decision.route, this.deps.settings.evidence),
      abstained: parts.abstained,
      abstentionReason: parts.reason,
      evidence: [...state.pool.values()].sort((a, b) => b.score - a.score).slice(0, 30),
      externalSearches: state.externalSearches,
      gaps: state.gaps,
      contradictions: state.contradictions,
      droppedSentences: parts.dropped,
      generator: parts.generator,
      sourceNote: parts.sourceNote,
      trace: [...state.trace, { stage: 'total', ms: Date.now() - state.started, note: '' }],
      cost: {
        llmCalls: meter.calls,
        promptTokens: meter.promptTokens,
        completionTokens: meter.completionTokens,
        apiCalls: state.ctx.ledger.requests(),
        estimatedUsd: Number(
          (
            (meter.promptTokens / 1000) * g.promptPricePer1k +
            (meter.completionTokens / 1000) * g.completionPricePer1k
          ).toFixed(6),
        ),
      },
      settingsHash: settingsHash(this.deps.settings),
    };
  }
}
