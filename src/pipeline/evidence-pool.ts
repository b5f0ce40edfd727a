import type { Evidence, EvidencePaper } from '../domain';
import type { Passage } from '../retrieval/search-types';
import type { Corpus } from '../retrieval/corpus';
import { scoreEvidence } from './evidence';
import { similarityScale, type SimilarityScale } from '../embedding/similarity-scale';

/**
 * Best passages taken from each paper that enters the pool: two, and more when a search finds few papers — a private
 * set of one long document, a narrow collection — so that the pool still reads about a dozen passages (at most six
 * of one paper).
 */
export function passagesPerPaper(papers: number): number {
  return Math.min(6, Math.max(2, Math.ceil(12 / Math.max(1, papers))));
}

/**
 * The passages an answer may cite, each once (by chunk id), remembering every search that found it. Papers enter
 * through `addFrom` (a corpus: the shared graph or the caller's documents) or `addPapers` (the shared graph): their best
 * passages for the question, scored, with the metadata citations need.
 */
export class EvidencePool {
  private readonly items = new Map<string, Evidence>();
  /** The embedding model's cosines on MiniLM's scale, on which the evidence score is defined. */
  private readonly scale: SimilarityScale;

  constructor(
    private readonly question: string,
    private readonly questionVector: Float32Array,
    private readonly sources: { graph: Corpus; settings: { model: { name: string } } },
  ) {
    this.scale = similarityScale(sources.settings.model.name);
  }

  get size(): number {
    return this.items.size;
  }

  get(id: string): Evidence | undefined {
    return this.items.get(id);
  }

  values(): Evidence[] {
    return [...this.items.values()];
  }

  /** Strongest first. */
  ranked(): Evidence[] {
    return this.values().sort((a, b) => b.score - a.score);
  }

  /** The strongest passage of each paper, strongest papers first. */
  bestPerPaper(): Evidence[] {
    const best = new Map<string, Evidence>();
    for (const evidence of this.ranked()) if (!best.has(evidence.paperId)) best.set(evidence.paperId, evidence);
    return [...best.values()];
  }

  /** Adds the best passages of these papers of the shared graph; returns how many passages were new. */
  addPapers(paperIds: readonly string[], source: Evidence['source'], foundBy: string): Promise<number> {
    return this.addFrom(this.sources.graph, paperIds, source, foundBy);
  }

  /** Adds the best passages of these papers of a corpus; returns how many passages were new. */
  async addFrom(
    corpus: Corpus,
    paperIds: readonly string[],
    source: Evidence['source'],
    foundBy: string,
  ): Promise<number> {
    if (paperIds.length === 0) return 0;
    const [passages, papers] = await Promise.all([
      corpus.passages(paperIds, this.questionVector, passagesPerPaper(paperIds.length)),
      corpus.evidencePapers(paperIds),
    ]);
    return this.add(passages, papers, source, foundBy);
  }

  private add(
    passages: ReadonlyMap<string, Passage[]>,
    papers: ReadonlyMap<string, EvidencePaper>,
    source: Evidence['source'],
    foundBy: string,
  ): number {
    let added = 0;
    for (const [paperId, list] of passages) {
      const paper = papers.get(paperId);
      if (!paper) continue;
      for (const passage of list) {
        const existing = this.items.get(passage.chunkId);
        if (existing) {
          if (!existing.foundBy.includes(foundBy)) existing.foundBy.push(foundBy);
          continue;
        }
        // Neo4j reports cosine normalised to [0, 1]; the evidence score wants the cosine, on MiniLM's scale.
        const similarity = this.scale.toReference(2 * passage.score - 1, 'query');
        this.items.set(passage.chunkId, {
          id: passage.chunkId,
          paperId,
          chunkId: passage.chunkId,
          text: passage.text,
          field: passage.field,
          start: passage.start,
          end: passage.end,
          section: passage.field === 'text' ? passage.section : null,
          sectionKind: passage.sectionKind ?? null,
          pageStart: passage.pageStart ?? null,
          pageEnd: passage.pageEnd ?? null,
          similarity,
          score: scoreEvidence(similarity, `${paper.title ?? ''} ${passage.text}`, this.question),
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
}
