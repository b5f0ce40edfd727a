import type { PaperFilter, Evidence } from '../domain';
import { badInput, CitegraphError, ErrorCode } from '../errors';
import { cosine } from '../embedding/embedder';
import { similarityScale } from '../embedding/similarity-scale';
import { extractiveAnswer, quotableFor } from '../generation/extractive';
import { reportDraftPrompt } from '../generation/prompts';
import { answerClaims, verifyAnswer, type VerifiedCitation } from '../generation/verify';
import type { Embedder } from '../embedding/embedder';
import type { RequestContext } from '../request-context';
import { isSourceFailure } from './stage';
import { TOPIC_SIMILARITY, type TopicSet } from '../analytics/topic-sets';
import type { PaperCluster } from '../analytics/citation-networks';
import { type Burst, kleinbergBursts } from '../analytics/science-of-science';
import { cleanTitle, contentTerms, sentenceSpans, withoutStop } from '../text';
import type { AskDependencies } from './ask-types';
import { findContradictions } from './evidence';
import { EvidencePool } from './evidence-pool';
import { topicPhrase } from './plan-subjects';
import { setFilter } from './stages/computed/outcome';

/**
 * A related-work report on a subject: the papers of the graph on it (its topic set), grouped into research fronts by
 * shared references (bibliographic coupling, Louvain), one section per front in the order the fronts arose (their
 * median publication year), each written from its most connected papers; an introduction and a conclusion computed
 * from the graph; a bibliography. Offline the fronts' sentences are extractive — chosen from the central papers'
 * passages for the subject and the front's own terms — and every one is verified as an answer's are: its quote slices
 * exactly from its source, and a sentence that does not verify is left out and listed.
 */

export interface ReportOptions {
  collections?: readonly string[] | null;
  yearFrom?: number | null;
  yearTo?: number | null;
  /** Most fronts (sections) written; the rest are named in the conclusion. */
  fronts?: number | null;
  /** Most sentences quoted per front. */
  sentencesPerFront?: number | null;
  /** The most connected papers of a front its sentences are chosen from. */
  papersPerFront?: number | null;
  /** A paper set to report on (an analyst's reading list), instead of the subject's topic set. */
  papers?: readonly string[] | null;
}

export const REPORT_LIMITS = {
  fronts: { default: 5, max: 10 },
  sentencesPerFront: { default: 3, max: 8 },
  papersPerFront: { default: 6, max: 20 },
  /** Papers of the topic set the coupling network is built from (most cited first). */
  networkPapers: 400,
  /** A front smaller than this is no section. */
  minFrontSize: 3,
  /** Most papers a given paper set may hold. */
  paperSet: 2000,
} as const;

/**
 * How close a front must be to the subject to be written up: its papers' mean closeness (1 for a paper in the topic
 * set by its words or concept, else the cosine that let it in by meaning) at least the set's own cosine threshold plus
 * 0.1. A front whose papers are all in by meaning, barely over the threshold, is the set's margin (for "emicizumab in
 * haemophilia A", 16 papers on infliximab biosimilars at 0.52, where every other front of three subjects is 0.70 or
 * more); it is named in the conclusion, not written.
 */
export const MIN_FRONT_CLOSENESS = TOPIC_SIMILARITY.minCosine + 0.1;

/** A sentence of a report: quoted from a paper (verified), computed from the graph, or a transition. */
export interface ReportSentence {
  text: string;
  /** `cited`: a quote from the papers, verified; `computed`: a figure of the graph; `transition`: says no fact. */
  kind: 'cited' | 'computed' | 'transition';
  citations: ReportCitation[];
}

export interface ReportCitation extends Omit<VerifiedCitation, 'marker'> {
  /** The paper's number in the report's bibliography. */
  marker: number;
}

export interface ReportFront {
  /** Its number among the topic set's coupling clusters, largest first. */
  cluster: number;
  size: number;
  terms: string[];
  topics: string[];
  firstYear: number | null;
  lastYear: number | null;
  medianYear: number | null;
  /** Mean closeness of its papers to the subject (see MIN_FRONT_CLOSENESS). */
  closeness: number;
  /**
   * Its first burst: the years its share of the subject's papers ran high (Kleinberg's two-state automaton over the
   * papers per year, front against subject), null when it never did.
   */
  burst: Burst | null;
  /** When it arose: the start of its first burst, or its median year when it never burst. */
  arose: number | null;
  /** How many papers of the subject's main path it holds. */
  mainPathPapers: number;
  /** Its papers' ids, most connected first. */
  papers: string[];
}

export interface ReportSection {
  kind: 'introduction' | 'front' | 'conclusion';
  title: string;
  /** Who wrote a front's quoted sentences: the LLM (attributed and verified) or the extractive generator. */
  generator: 'llm' | 'extractive' | null;
  front: ReportFront | null;
  sentences: ReportSentence[];
}

export interface ReportEntry {
  marker: number;
  paperId: string;
  title: string | null;
  year: number | null;
  doi: string | null;
  venue: string | null;
}

export interface Report {
  subject: string;
  /** What the papers were chosen by: the topic phrase (a question's topic), or "the N papers given". */
  topic: string;
  title: string;
  /** The topic set's rule in words. */
  definition: string;
  /** Papers of the topic set. */
  papers: number;
  /** Papers in the fronts written as sections. */
  covered: number;
  /** Papers cited in the report. */
  cited: number;
  /** What the report leaves out, and why. */
  leftOut: Array<{ reason: string; papers: number }>;
  sections: ReportSection[];
  bibliography: ReportEntry[];
  /** Sentences chosen for a front that did not verify, with the reason. */
  dropped: Array<{ section: string; text: string; reason: string }>;
  /** `llm` when the LLM wrote at least one front's sentences, else `extractive`. */
  generator: 'llm' | 'extractive';
  /** The main path of the citation network among the papers (global search path count), oldest first. */
  mainPath: string[];
}

function bounded(value: number | null | undefined, limit: { default: number; max: number }, name: string): number {
  if (value === null || value === undefined) return limit.default;
  if (!Number.isInteger(value) || value < 1 || value > limit.max) {
    throw badInput(`${name} must be a whole number from 1 to ${limit.max}`, { argument: `options.${name}` });
  }
  return value;
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A front's heading: its distinctive title terms, else its most frequent topic. */
export function frontTitle(front: Pick<ReportFront, 'terms' | 'topics' | 'cluster'>): string {
  if (front.terms.length > 0) return capitalise(front.terms.slice(0, 3).join(', '));
  return front.topics[0] ?? `Research front ${front.cluster}`;
}

const yearsText = (first: number | null, last: number | null) =>
  first === null ? 'undated' : first === last ? String(first) : `${first}–${last}`;

/** What a caller may follow: each section as it is finished (a stream), and a signal that stops the work. */
export interface ReportHooks {
  onSection?: (section: ReportSection) => void;
  signal?: AbortSignal | null;
  /** The request: its LLM, when it has one, writes the fronts (two stages: a draft, then attribution). */
  ctx?: RequestContext | null;
}

export class ReportService {
  constructor(private readonly deps: AskDependencies) {}

  async report(subject: string, options: ReportOptions = {}, hooks: ReportHooks = {}): Promise<Report> {
    const checkSignal = (before: string) => {
      if (hooks.signal?.aborted) {
        throw new CitegraphError(ErrorCode.DEADLINE_EXCEEDED, `the request ended before ${before}`, {
          retryable: true,
        });
      }
    };
    const trimmed = subject.trim();
    if (!trimmed) throw badInput('the subject is empty', { argument: 'subject' });
    if (trimmed.length > 300) throw badInput('the subject is longer than 300 characters', { argument: 'subject' });
    const maxFronts = bounded(options.fronts, REPORT_LIMITS.fronts, 'fronts');
    const perFront = bounded(options.sentencesPerFront, REPORT_LIMITS.sentencesPerFront, 'sentencesPerFront');
    const papersPerFront = bounded(options.papersPerFront, REPORT_LIMITS.papersPerFront, 'papersPerFront');
    const filter: PaperFilter = {
      collections: options.collections ?? null,
      yearFrom: options.yearFrom ?? null,
      yearTo: options.yearTo ?? null,
    };
    const { set, topic } = options.papers?.length
      ? await this.paperSet(options.papers, filter)
      : await this.subjectSet(trimmed, filter);
    const mainPath = await this.mainPath(set);
    const fronts = await this.fronts(set, mainPath);
    const onSubject = fronts.filter((f) => f.closeness >= MIN_FRONT_CLOSENESS);
    const edge = fronts.filter((f) => f.closeness < MIN_FRONT_CLOSENESS);
    const written = onSubject
      .slice(0, maxFronts)
      .sort((a, b) => (a.arose ?? 9999) - (b.arose ?? 9999) || a.cluster - b.cluster);
    const bibliography = new Map<string, ReportEntry>();
    const dropped: Report['dropped'] = [];
    const sections: ReportSection[] = [];
    const cite = (citation: VerifiedCitation, evidence: Evidence): ReportCitation => {
      let entry = bibliography.get(citation.paperId);
      if (!entry) {
        entry = {
          marker: bibliography.size + 1,
          paperId: citation.paperId,
          title: evidence.paper.title === null ? null : cleanTitle(evidence.paper.title),
          year: evidence.paper.year,
          doi: evidence.paper.doi,
          venue: evidence.paper.venue,
        };
        bibliography.set(citation.paperId, entry);
      }
      return { ...citation, marker: entry.marker };
    };
    const inFronts = new Set(written.flatMap((f) => f.papers));
    const years = set.papers.map((p) => p.year).filter((y): y is number => y !== null);
    const firstYear = years.length ? Math.min(...years) : null;
    const lastYear = years.length ? Math.max(...years) : null;
    const introduction: ReportSection = {
      kind: 'introduction',
      title: 'Introduction',
      generator: null,
      front: null,
      sentences: [
        {
          kind: 'computed',
          text: options.papers?.length
            ? `This report covers the ${set.papers.length} papers given, published ${yearsText(firstYear, lastYear)}.`
            : `This report covers the ${set.papers.length} papers of the graph on "${topic}" (${set.rule}), published ${yearsText(firstYear, lastYear)}.`,
          citations: [],
        },
        {
          kind: 'computed',
          text:
            fronts.length > 0
              ? `Grouped by the references they share (bibliographic coupling, Louvain communities), they form ${fronts.length} research front${fronts.length === 1 ? '' : 's'} of at least ${REPORT_LIMITS.minFrontSize} papers; the sections follow the ${written.length} largest on the subject in the order they arose: the year a front's share of the papers first burst (Kleinberg), or its median year when it never did.`
              : 'No three of them share references, so they form no research fronts, and the report has no sections.',
          citations: [],
        },
        ...(mainPath.length >= 2
          ? [{ kind: 'computed' as const, text: await this.mainPathText(mainPath), citations: [] }]
          : []),
        {
          kind: 'transition',
          text: 'Every quoted sentence cites the paper it comes from; the figures are counts of the graph.',
          citations: [],
        },
      ],
    };
    hooks.onSection?.(introduction);
    const contradictions: ReportSentence[] = [];
    const embedder = await this.deps.embedder();
    for (const front of written) {
      checkSignal(`the front "${frontTitle(front)}"`);
      const title = frontTitle(front);
      const query = `${trimmed}: ${front.terms.slice(0, 5).join(' ')}`;
      const [vector] = await embedder.embed([query], 'query');
      const pool = new EvidencePool(query, vector!, { graph: this.deps.graph, settings: this.deps.settings });
      const central = front.papers.slice(0, papersPerFront);
      await pool.addPapers(central, 'local', `front ${front.cluster}`);
      const evidence = pool.ranked();
      const labels = new Map(evidence.map((e, i) => [`E${i + 1}`, e]));
      const labelOf = (e: Evidence) => `E${evidence.indexOf(e) + 1}`;
      const resolve = (label: string) => labels.get(label.startsWith('E') ? label : `E${label}`)?.id;
      const byEvidenceId = new Map(evidence.map((e) => [e.id, e]));
      const threshold = this.deps.settings.evidence.supportThreshold;
      // With an LLM: its draft, each sentence attributed to the passage closest in meaning and verified; a sentence no
      // passage supports is dropped and listed. A front where none stands is written extractively.
      let generator: 'llm' | 'extractive' = 'extractive';
      let verification: ReturnType<typeof verifyAnswer> | null = null;
      if (hooks.ctx?.llm && evidence.length > 0) {
        const written = await this.llmFront(hooks.ctx, trimmed, title, evidence, embedder, perFront, labelOf);
        if (written) {
          const attempt = verifyAnswer(
            written.draft,
            byEvidenceId,
            resolve,
            threshold,
            written.similarity,
            quotableFor(query),
          );
          for (const d of attempt.dropped) dropped.push({ section: title, text: d.text, reason: `LLM: ${d.reason}` });
          if (attempt.sentences.some((s) => s.citations.length > 0)) {
            verification = attempt;
            generator = 'llm';
          }
        }
      }
      if (!verification) {
        const draft = await extractiveAnswer(query, evidence, labelOf, embedder, perFront, new Set(central));
        verification = verifyAnswer(draft.answer, byEvidenceId, resolve, threshold, undefined, quotableFor(query));
        for (const d of verification.dropped) dropped.push({ section: title, ...d });
      }
      const sentences: ReportSentence[] = [
        {
          kind: 'computed',
          text: `${front.size} papers (${yearsText(front.firstYear, front.lastYear)}, half of them by ${front.medianYear ?? 'an unknown year'}) share references here${front.topics.length ? `; their most frequent topics are ${front.topics.slice(0, 3).join(', ')}` : ''}.`,
          citations: [],
        },
        {
          kind: 'computed',
          text: `${front.burst ? `Its share of the papers burst in ${yearsText(front.burst.start, front.burst.end)} (strength ${front.burst.strength.toFixed(1)})` : 'Its share of the papers never burst'}; it holds ${front.mainPathPapers === 0 ? 'none' : front.mainPathPapers} of the ${mainPath.length} papers of the main path.`,
          citations: [],
        },
        ...verification.sentences
          .filter((s) => s.citations.length > 0)
          .map((s) => ({
            kind: 'cited' as const,
            text: s.text,
            citations: s.citations.map((c) => cite(c, byEvidenceId.get(c.evidenceId)!)),
          })),
      ];
      if (sentences.length === 2) {
        sentences.push({
          kind: 'transition',
          text: 'No passage of its most connected papers could be quoted for the subject.',
          citations: [],
        });
      }
      const section: ReportSection = { kind: 'front', title, generator, front, sentences };
      sections.push(section);
      hooks.onSection?.(section);
      contradictions.push(...(await this.disagreements(evidence, cite)));
    }
    const newest = [...written].sort((a, b) => (b.medianYear ?? 0) - (a.medianYear ?? 0))[0];
    const unwritten = onSubject.slice(maxFronts);
    const conclusion: ReportSection = {
      kind: 'conclusion',
      title: 'Conclusion and open questions',
      generator: null,
      front: null,
      sentences: [
        ...(newest
          ? [
              {
                kind: 'computed' as const,
                text: `The youngest front is "${frontTitle(newest)}" (half of its ${newest.size} papers from ${newest.medianYear} or later).`,
                citations: [],
              },
            ]
          : []),
        ...(unwritten.length
          ? [
              {
                kind: 'computed' as const,
                text: `Not written up: ${unwritten.length} smaller front${unwritten.length === 1 ? '' : 's'} (${unwritten
                  .slice(0, 5)
                  .map((f) => `"${frontTitle(f)}", ${f.size} papers`)
                  .join('; ')}${unwritten.length > 5 ? '; …' : ''}).`,
                citations: [],
              },
            ]
          : []),
        ...(edge.length
          ? [
              {
                kind: 'computed' as const,
                text: `At the edge of the subject and not written up: ${edge
                  .slice(0, 5)
                  .map((f) => `"${frontTitle(f)}" (${f.size} papers, closeness ${f.closeness.toFixed(2)})`)
                  .join(
                    '; ',
                  )}${edge.length > 5 ? '; …' : ''} — papers in the set by meaning alone, near its threshold.`,
                citations: [],
              },
            ]
          : []),
        ...contradictions.slice(0, 3),
        ...(contradictions.length === 0
          ? [
              {
                kind: 'transition' as const,
                text: 'No two quoted passages of different papers were found to disagree (one reporting no effect where a similar one reports one).',
                citations: [],
              },
            ]
          : []),
      ],
    };
    hooks.onSection?.(conclusion);
    const cited = bibliography.size;
    const outside = set.papers.length - inFronts.size;
    return {
      subject: trimmed,
      topic,
      mainPath,
      // A question keeps its question mark: "What is known about X? A report on N papers".
      title: /[?!.]$/.test(trimmed)
        ? `${capitalise(trimmed)} A report on ${set.papers.length} papers`
        : `${capitalise(trimmed)}: a report on ${set.papers.length} papers`,
      definition: set.rule,
      papers: set.papers.length,
      covered: inFronts.size,
      cited,
      leftOut: [
        ...(outside > 0
          ? [
              {
                reason: `share no reference with other papers of the set, or belong to fronts smaller than ${REPORT_LIMITS.minFrontSize}, beyond the ${maxFronts} written or at the edge of the subject`,
                papers: outside,
              },
            ]
          : []),
        ...(inFronts.size - cited > 0
          ? [
              {
                reason: 'in a written front but not quoted (not among its most connected papers)',
                papers: inFronts.size - cited,
              },
            ]
          : []),
      ],
      sections: [introduction, ...sections, conclusion],
      bibliography: [...bibliography.values()],
      dropped,
      generator: sections.some((section) => section.generator === 'llm') ? 'llm' : 'extractive',
    };
  }

  /** The topic set of a subject; a question is read for its topic ("what is known about X?" → X). */
  private async subjectSet(subject: string, filter: PaperFilter): Promise<{ set: TopicSet; topic: string }> {
    const asked =
      /\?\s*$/.test(subject) || /^(?:what|which|how|who|why|when|where|is|are|does|do|can)\b/i.test(subject);
    const topic = (asked ? topicPhrase(subject) : null) ?? subject;
    const set = await this.deps.analytics.topics.topicSet(topic, filter);
    if (set.papers.length === 0) {
      throw badInput(`no paper of the graph is on "${topic}" (${set.rule})`, { argument: 'subject' });
    }
    return { set, topic };
  }

  /** A given paper set as a topic set: every paper is in by choice (closeness 1); unknown ids are refused. */
  private async paperSet(ids: readonly string[], filter: PaperFilter): Promise<{ set: TopicSet; topic: string }> {
    const unique = [...new Set(ids.map((id) => id.trim()).filter(Boolean))];
    if (unique.length > REPORT_LIMITS.paperSet) {
      throw badInput(`a report takes at most ${REPORT_LIMITS.paperSet} papers, got ${unique.length}`, {
        argument: 'options.papers',
      });
    }
    const rows = (await this.deps.catalog.papersByIds(unique)).filter((row) => !row.stub);
    const known = new Set(rows.map((row) => row.id));
    const unknown = unique.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw badInput(
        `${unknown.length} of the papers given ${unknown.length === 1 ? 'is' : 'are'} not in the graph (or only cited by it): ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', …' : ''}`,
        { argument: 'options.papers' },
      );
    }
    const kept = rows.filter(
      (row) =>
        (filter.yearFrom == null || (row.year ?? -Infinity) >= filter.yearFrom) &&
        (filter.yearTo == null || (row.year ?? Infinity) <= filter.yearTo) &&
        (!filter.collections?.length || (row.collections ?? []).some((c) => filter.collections!.includes(c))),
    );
    if (kept.length === 0)
      throw badInput('no paper given is within the years and collections asked', { argument: 'options' });
    const topic = `the ${kept.length} papers given`;
    return {
      topic,
      set: {
        phrase: topic,
        concepts: [],
        rule: topic,
        truncated: false,
        papers: kept.map((row) => ({
          id: row.id,
          title: row.title ?? null,
          year: row.year ?? null,
          citedByCount: row.citedByCount ?? 0,
          internalCitations: row.internalCitedBy ?? 0,
          byWords: true,
        })),
      },
    };
  }

  /** The main path of the citation network among the set's most cited papers (the network the fronts are built on). */
  private async mainPath(set: TopicSet): Promise<string[]> {
    const path = await this.deps.science.networks.mainPath(
      setFilter({ ...set, papers: networkPapers(set) }),
      REPORT_LIMITS.networkPapers,
    );
    return path.papers.map((paper) => paper.id);
  }

  /** The main path in words: its length, years, and its first and last papers. */
  private async mainPathText(path: readonly string[]): Promise<string> {
    const rows = new Map((await this.deps.catalog.papersByIds(path)).map((row) => [row.id, row]));
    const named = (id: string) => {
      const row = rows.get(id);
      const title = row?.title ? cleanTitle(row.title) : id;
      return `"${title.length > 80 ? `${title.slice(0, 77).trimEnd()}…` : title}" (${row?.year ?? 'undated'})`;
    };
    const shown =
      path.length <= 4
        ? path.map(named).join(' → ')
        : `${path.slice(0, 2).map(named).join(' → ')} → … → ${path.slice(-2).map(named).join(' → ')}`;
    return `The main path of their citation network (the links most search paths run through) passes ${path.length} papers: ${shown}.`;
  }

  /**
   * The LLM's paragraph on a front (first stage, without citations) and its attribution (second stage): each sentence
   * gets the label of the passage closest to it in meaning, and the similarity the verifier weighs with term overlap.
   * Null when the LLM fails (the front is then written extractively).
   */
  private async llmFront(
    ctx: RequestContext,
    subject: string,
    front: string,
    evidence: readonly Evidence[],
    embedder: Embedder,
    perFront: number,
    labelOf: (evidence: Evidence) => string,
  ): Promise<{ draft: string; similarity: (sentence: string, evidence: Evidence) => number } | null> {
    const passages = evidence.slice(0, 8);
    let text: string;
    try {
      text = (
        await ctx.llm!.chat(
          reportDraftPrompt(
            subject,
            front,
            passages.map((e) => e.text),
          ),
          { maxTokens: 80 * perFront },
        )
      ).text;
    } catch (error) {
      if (isSourceFailure(error)) return null;
      throw error;
    }
    const claims = answerClaims(text).slice(0, 2 * perFront);
    if (claims.length === 0) return null;
    const [claimVectors, passageVectors] = await Promise.all([
      embedder.embed(claims),
      embedder.embed(passages.map((e) => e.text)),
    ]);
    const scale = similarityScale(embedder.modelName);
    // Each claim's similarity to each passage, once.
    const similarities = claimVectors.map((claim) =>
      passageVectors.map((passage) => scale.toReference(cosine(claim, passage), 'passage')),
    );
    const cosineOf = (i: number, j: number) => similarities[i]![j]!;
    const draft = claims
      .map((claim, i) => {
        const row = similarities[i]!;
        const best = row.indexOf(Math.max(...row));
        return `${withoutStop(claim)} [${labelOf(passages[best]!)}].`;
      })
      .join(' ');
    const index = new Map(claims.map((claim, i) => [claim, i]));
    const position = new Map(passages.map((e, j) => [e.id, j]));
    const similarity = (sentence: string, e: Evidence) => {
      const i = index.get(sentence);
      const j = position.get(e.id);
      return i === undefined || j === undefined ? 0 : cosineOf(i, j);
    };
    return { draft, similarity };
  }

  /** The topic set's fronts: coupling clusters of its most cited papers, largest first, with their years. */
  private async fronts(set: TopicSet, mainPath: readonly string[]): Promise<ReportFront[]> {
    const network = networkPapers(set);
    const onPath = new Set(mainPath);
    // Papers of the subject per year: what a front's share of the papers is measured against.
    const perYear = new Map<number, number>();
    for (const paper of set.papers)
      if (paper.year !== null) perYear.set(paper.year, (perYear.get(paper.year) ?? 0) + 1);
    const clustering = await this.deps.science.networks.clusters(setFilter({ ...set, papers: network }), 'COUPLING', {
      maxNodes: REPORT_LIMITS.networkPapers,
      minWeight: 1,
      resolution: 1,
    });
    const byId = new Map(set.papers.map((p) => [p.id, p]));
    const closeness = (id: string) => {
      const paper = byId.get(id);
      return !paper ? 0 : paper.byWords || paper.byConcept ? 1 : (paper.similarity ?? 0);
    };
    return clustering.clusters
      .filter((c) => c.size >= REPORT_LIMITS.minFrontSize)
      .map((c: PaperCluster) => {
        const years = c.members.map((id) => byId.get(id)?.year).filter((y): y is number => typeof y === 'number');
        const own = new Map<number, number>();
        for (const year of years) own.set(year, (own.get(year) ?? 0) + 1);
        const burst =
          kleinbergBursts([...perYear].map(([year, total]) => ({ year, total, relevant: own.get(year) ?? 0 })))[0] ??
          null;
        const medianYear = median(years);
        return {
          cluster: c.cluster,
          size: c.size,
          terms: c.terms,
          topics: c.topics.map((t) => t.topic.name ?? t.topic.id),
          firstYear: years.length ? Math.min(...years) : null,
          lastYear: years.length ? Math.max(...years) : null,
          medianYear,
          closeness: c.members.reduce((sum, id) => sum + closeness(id), 0) / c.members.length,
          burst,
          arose: burst?.start ?? medianYear,
          mainPathPapers: c.members.filter((id) => onPath.has(id)).length,
          papers: c.members,
        };
      });
  }

  /**
   * Passages of a front's papers that may disagree (one reports no effect where a similar one reports one), as
   * sentences citing the two sentences that do: a flag for the reader, not a verdict.
   */
  private async disagreements(
    evidence: readonly Evidence[],
    cite: (citation: VerifiedCitation, evidence: Evidence) => ReportCitation,
  ): Promise<ReportSentence[]> {
    const vectors = await this.deps.catalog.evidence.chunkEmbeddings(evidence.map((e) => e.id));
    const scale = similarityScale(this.deps.settings.model.name);
    const found = findContradictions(evidence, (a, b) => {
      const va = vectors.get(a.id);
      const vb = vectors.get(b.id);
      return va && vb ? scale.toReference(cosine(va, vb), 'passage') : 0;
    });
    const byId = new Map(evidence.map((e) => [e.id, e]));
    // The closest pair of the front only: one open question per front.
    return found.slice(0, 1).map((pair) => {
      const [a, b] = [byId.get(pair.a)!, byId.get(pair.b)!];
      // Each side's sentence closest in words to the other passage: where the two speak of the same thing.
      const citations = [cite(quoteOf(a, contentTerms(b.text)), a), cite(quoteOf(b, contentTerms(a.text)), b)];
      const shown = (quote: string) => (quote.length > 220 ? `${quote.slice(0, 217).trimEnd()}…` : quote);
      return {
        kind: 'computed',
        text: `Open question — these passages may disagree (one reports no effect where the other reports one): "${shown(citations[0]!.quote)}" and "${shown(citations[1]!.quote)}".`,
        citations,
      };
    });
  }
}

/** The set's most cited papers: the citation and coupling networks a report reads. */
function networkPapers(set: TopicSet): TopicSet['papers'] {
  return [...set.papers]
    .sort((a, b) => b.citedByCount - a.citedByCount || (a.id < b.id ? -1 : 1))
    .slice(0, REPORT_LIMITS.networkPapers);
}

/** The sentence of a passage sharing most words with `terms`, as a citation whose quote slices from the passage. */
function quoteOf(evidence: Evidence, terms: readonly string[]): VerifiedCitation {
  const wanted = new Set(terms);
  let best = { start: 0, end: evidence.text.length, shared: -1 };
  for (const span of sentenceSpans(evidence.text, 0, evidence.text.length)) {
    const shared = contentTerms(evidence.text.slice(span.start, span.end)).filter((t) => wanted.has(t)).length;
    if (shared > best.shared) best = { ...span, shared };
  }
  const raw = evidence.text.slice(best.start, best.end);
  const start = best.start + (raw.length - raw.trimStart().length);
  const end = best.end - (raw.length - raw.trimEnd().length);
  return {
    marker: 0,
    evidenceId: evidence.id,
    paperId: evidence.paperId,
    chunkId: evidence.chunkId,
    quote: evidence.text.slice(start, end),
    field: evidence.field,
    start: evidence.start + start,
    end: evidence.start + end,
    section: evidence.section ?? null,
    sectionKind: evidence.sectionKind ?? null,
    page: evidence.pageStart ?? null,
    pageEnd: evidence.pageEnd ?? null,
    supportScore: 1,
    method: 'exact',
  };
}
