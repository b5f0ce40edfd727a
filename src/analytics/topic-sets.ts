/**
 * Topic sets: every paper on a topic phrase, by its words, the concepts it names and papers close in meaning
 * (cypher/analytics/topic-set.cypher), each with why it is in.
 */
import type { GraphExecutor } from '../graph/executor';
import { paperFilterParams, queries } from '../graph/query-registry';
import { badInput } from '../errors';
import { contentTerms, stem } from '../text';
import type { PaperFilter } from '../domain';
import type { SearchService } from '../retrieval/search-service';
import { cosine, meanVector } from '../embedding/embedder';
import type { SimilarityScale } from '../embedding/similarity-scale';
import { mostWordsQuery } from './analytics-math';

/** Most papers a topic set holds; a larger set is cut (and says so). */
export const TOPIC_SET_LIMIT = 5000;
/** Full-text hits a topic set reads before its filters (collections, years). */
export const TOPIC_SET_SCAN = 100_000;
/** Lowest concept score that puts a paper into the set of the concept's name. */
export const TOPIC_SET_MIN_CONCEPT_SCORE = 0.3;
/** How many words a concept's name may add to a topic phrase and still be part of the topic (a narrower concept). */
export const MAX_EXTRA_CONCEPT_WORDS = 2;
/**
 * How a topic set reaches the papers its words miss: the centroid of its seeds (the best word matches and the papers
 * nearest the phrase) and the cosine a paper's nearest chunk must reach to it. Chosen on the SYNERGY reviews with
 * labels (scripts/bench/topics: share of each review's included papers in the set, and its size against the review's
 * candidates) and checked on phrasings written apart from that choice.
 */
export const TOPIC_SIMILARITY = {
  // The cosines are MiniLM's; another model's thresholds are these carried to its scale (src/embedding/similarity-scale.ts).
  /** Best word-matching papers among the seeds. */
  lexicalSeeds: 300,
  /** Papers nearest the phrase among the seeds. */
  nearestSeeds: 20,
  /** Cosine to the phrase a nearest paper needs to be a seed. */
  minNearestCosine: 0.4,
  /** Cosine to the centroid that puts a paper in. */
  minCosine: 0.5,
  /** Most chunks read from the vector index per set. */
  maxChunks: 20_000,
} as const;

/** A paper of a topic set, with what counting needs and why it is in. */
export interface TopicSetPaper {
  id: string;
  title: string | null;
  year: number | null;
  citedByCount: number;
  internalCitations: number;
  /** Its title or abstract holds every word of the phrase. */
  byWords?: boolean;
  /** It carries the concept named by the phrase. */
  byConcept?: boolean;
  /** Cosine of its nearest chunk to the topic's centroid, when that put it in (null otherwise). */
  similarity?: number | null;
}

/** Every paper relevant to a topic phrase by the rule in cypher/analytics/topic-set.cypher. */
export interface TopicSet {
  phrase: string;
  /** The graph's concepts the phrase names (their papers are in the set), most papers first. */
  concepts: Array<{ id: string; name: string }>;
  /** The rule in words, for answers ("title or abstract contains aspirin and stroke, or …"). */
  rule: string;
  papers: TopicSetPaper[];
  /** True when the set reached TOPIC_SET_LIMIT and was cut. */
  truncated: boolean;
}

/** The topic sets of the graph (see TopicSet). */
export class TopicSets {
  constructor(
    private readonly executor: GraphExecutor,
    private readonly search: SearchService,
  ) {}

  /**
   * The papers on a topic: title or abstract contains every content word of the phrase (stemmed), or the paper
   * carries a concept named exactly the phrase (score ≥ 0.3). Every paper, not the top hits of a search.
   */
  async topicSet(phrase: string, filter?: PaperFilter | null): Promise<TopicSet> {
    const words = [...new Set(contentTerms(phrase))].slice(0, 12);
    if (words.length === 0) throw badInput(`the topic "${phrase.slice(0, 80)}" has no searchable words`);
    const query = words.map((word) => `+${word}`).join(' ');
    const lowered = phrase.toLowerCase().trim();
    const concepts = await this.conceptsNamed(words);
    const conceptIds = concepts.map((c) => c.id);
    const near = await this.papersNearTopic(phrase, words, lowered, conceptIds);
    const papers = await this.executor.read<TopicSetPaper>(
      queries().topicSet({
        query,
        phrase: lowered,
        minScore: TOPIC_SET_MIN_CONCEPT_SCORE,
        limit: TOPIC_SET_LIMIT,
        // Lucene's limit comes before the filters: read every hit, then keep TOPIC_SET_LIMIT of those that pass.
        scan: TOPIC_SET_SCAN,
        similar: near.papers,
        concepts: conceptIds,
        ...paperFilterParams(filter),
      }),
    );
    const conceptText =
      concepts.length > 0
        ? `${concepts.length > 1 ? 'one of the concepts' : 'the concept'} ${concepts.map((c) => `"${c.name}" (${c.id})`).join(', ')}`
        : `the concept "${phrase}"`;
    const wordRule = `title or abstract contains ${words.map((word) => `"${word}"`).join(' and ')} (any word form), or the paper carries ${conceptText}`;
    const byMeaning = papers.filter((paper) => !paper.byWords && !paper.byConcept).length;
    return {
      phrase,
      concepts,
      rule: near.unavailable
        ? `${wordRule}; papers close in meaning could not be added (${near.unavailable})`
        : `${wordRule}, or its text is close in meaning to those papers and to the phrase (cosine at least ${near.minCosine.toFixed(2)} to their centroid${near.model === 'minilm' ? '' : `, ${near.model}'s cosine at MiniLM's ${TOPIC_SIMILARITY.minCosine}`}): ${papers.length - byMeaning} by words or concept, ${byMeaning} by meaning`,
      papers,
      truncated: papers.length >= TOPIC_SET_LIMIT || near.truncated,
    };
  }

  /**
   * The concepts a topic's words name: concept names holding every word of the phrase (as stems: "Muscle relaxant"
   * for "muscle relaxants") and at most MAX_EXTRA_CONCEPT_WORDS more, so a narrower concept belongs to the topic
   * ("Articular cartilage repair" to "cartilage repair") and a broader one ("Borderline personality disorder" for
   * "psychotherapy for borderline personality disorder") does not.
   */
  private async conceptsNamed(words: readonly string[]): Promise<Array<{ id: string; name: string }>> {
    const stems = [...new Set(words.map(stem))].filter((s) => /^[a-z0-9]+$/.test(s));
    if (stems.length === 0 || stems.length !== words.length) return [];
    const rows = await this.executor.read<{ id: string; name: string; papers: number }>(
      queries().topicConcepts({ query: stems.map((s) => `+${s}*`).join(' '), limit: 50 }),
    );
    return rows
      .filter((row) => {
        const named = new Set(contentTerms(row.name).map(stem));
        return stems.every((s) => named.has(s)) && named.size <= stems.length + MAX_EXTRA_CONCEPT_WORDS;
      })
      .filter((row) => row.papers > 0)
      .map((row) => ({ id: row.id, name: row.name }));
  }

  /**
   * The papers close in meaning to a topic: the centroid of its seeds (the best papers holding most of its words, the
   * concept's papers and the papers nearest the phrase), then every paper whose nearest chunk reaches TOPIC_SIMILARITY.minCosine to it.
   * Without the embedding model the set keeps its words and concepts and says why.
   */
  private async papersNearTopic(
    phrase: string,
    words: readonly string[],
    lowered: string,
    concepts: readonly string[],
  ): Promise<{
    papers: Array<{ id: string; similarity: number }>;
    truncated: boolean;
    /** The cosine to the centroid that put papers in, and the model whose cosine it is. */
    minCosine: number;
    model: string;
    unavailable?: string;
  }> {
    let vector: Float32Array;
    let scale: SimilarityScale;
    try {
      vector = await this.search.embedQuery(phrase);
      scale = await this.search.similarityScale();
    } catch (error) {
      return {
        papers: [],
        truncated: false,
        minCosine: TOPIC_SIMILARITY.minCosine,
        model: 'minilm',
        unavailable: (error as Error).message,
      };
    }
    const minNearestCosine = scale.fromReference(TOPIC_SIMILARITY.minNearestCosine, 'query');
    const minCosine = scale.fromReference(TOPIC_SIMILARITY.minCosine, 'centroid');
    const none = { papers: [], truncated: false, minCosine, model: scale.model };
    const [lexical, nearest] = await Promise.all([
      this.executor.read<{ id: string }>(
        queries().topicSeeds({
          query: mostWordsQuery(words),
          phrase: lowered,
          minScore: TOPIC_SET_MIN_CONCEPT_SCORE,
          limit: TOPIC_SIMILARITY.lexicalSeeds,
          scan: TOPIC_SET_SCAN,
          concepts: [...concepts],
        }),
      ),
      this.search.nearestPapers(vector, TOPIC_SIMILARITY.nearestSeeds),
    ]);
    // Without a paper holding most of the words or the concept, nothing anchors the meaning: the nearest papers of an
    // unknown subject are merely the least far.
    if (lexical.length === 0) return none;
    const close = nearest.filter((row) => row.cosine >= minNearestCosine);
    const vectors = await this.search.paperVectors([
      ...new Set([...lexical.map((row) => row.id), ...close.map((row) => row.paperId)]),
    ]);
    // The papers holding the words say what the topic means; a paper merely near the phrase joins them only when it
    // is close to them too. A rare word the model barely knows ("antispasticity drug") otherwise leaves the phrase's
    // nearest papers to its common word, and the centroid drifts to every drug trial.
    const anchor = meanVector(lexical.map((row) => vectors.get(row.id)).filter((v): v is Float32Array => !!v));
    const seeds = [
      ...lexical.map((row) => row.id),
      ...close
        .map((row) => row.paperId)
        .filter((id) => {
          const v = vectors.get(id);
          return !!v && (!anchor || cosine(v, anchor) >= minCosine);
        }),
    ];
    const centroid = meanVector([...new Set(seeds)].flatMap((id) => vectors.get(id) ?? []));
    if (!centroid) return none;
    // The index gives chunks nearest first: read more while every chunk read still passes.
    const total = await this.search.chunkCount();
    for (let k = Math.min(total, 2000); ; k = Math.min(total, k * 4, TOPIC_SIMILARITY.maxChunks)) {
      if (k === 0) return none;
      const rows = await this.executor.read<{
        id: string | null;
        stub: boolean | null;
        similarity: number;
        chunks: number;
      }>(queries().topicSimilar({ vector: Array.from(centroid), k, minCosine }));
      const passed = rows.reduce((sum, row) => sum + row.chunks, 0);
      const more = passed >= k && k < total;
      if (!more || k >= TOPIC_SIMILARITY.maxChunks) {
        const papers = rows
          .filter((row): row is typeof row & { id: string } => row.id !== null && row.stub === false)
          .map(({ id, similarity }) => ({ id, similarity }));
        return { ...none, papers, truncated: more };
      }
    }
  }
}
