/**
 * What the ask pipeline reads from the graph: papers mentioning concepts, their texts, citations between two sets of
 * papers, the metadata evidence cites, and stored chunk vectors.
 */
import type { EvidencePaper } from '../domain';
import type { GraphExecutor } from '../graph/executor';
import { queries } from '../graph/query-registry';

/** What the sufficiency score and citations need of a paper, with its citation counts. */
export interface EvidencePaperRow extends EvidencePaper {
  citedByCount: number;
  internalCitations: number;
}

/** Full-text hits read before a collection filter when looking for papers that mention given phrases. */
const MENTIONING_SCAN = 20_000;
/** How far apart (in positions, as Lucene's phrase slop) the words of one phrase may be for `near`. */
const NEAR_SLOP = 12;

/** The pipeline's reads for relational sufficiency and citation (see src/pipeline/stages/relate.ts). */
export class EvidenceReads {
  constructor(private readonly executor: GraphExecutor) {}

  /**
   * Papers whose title or abstract (or, with `inTitle`, whose title) mentions every one of the concepts, within the
   * collections, best matches first; at most `limit`. A concept is a list of forms (each a list of plain words, all
   * required; the index stems), any one of which names it.
   */
  async papersMentioning(
    phrases: ReadonlyArray<ReadonlyArray<readonly string[]>>,
    collections: readonly string[] | null,
    limit: number,
    options: { inTitle?: boolean; near?: boolean } = {},
  ): Promise<string[]> {
    const field = options.inTitle ? 'title:' : '';
    // near: the words of a phrase within a dozen positions of each other (a sloppy phrase), not anywhere in the text.
    const form = (words: readonly string[]) =>
      options.near && words.length > 1
        ? `${field}"${words.join(' ')}"~${NEAR_SLOP}`
        : `${field}(${words.map((word) => `+${word}`).join(' ')})`;
    // Each required phrase is one of its forms (a concept's words, or the acronym the question defined for it).
    const clauses = phrases
      .map((forms) =>
        forms.map((words) => words.filter((word) => /^[\p{L}\p{N}]+$/u.test(word))).filter((words) => words.length > 0),
      )
      .filter((forms) => forms.length > 0)
      .map((forms) => (forms.length === 1 ? `+${form(forms[0]!)}` : `+(${forms.map(form).join(' ')})`));
    if (clauses.length === 0) return [];
    const rows = await this.executor.read<{ id: string }>(
      queries().papersMentioning({
        query: [...new Set(clauses)].join(' '),
        collections: collections ? [...collections] : null,
        limit,
        // Every hit when a collection filter follows (Lucene's limit comes first); just enough otherwise.
        scan: collections ? MENTIONING_SCAN : limit,
      }),
    );
    return rows.map((row) => row.id);
  }

  /** Title and abstract of each paper, one text per id. */
  async paperTexts(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.executor.read<{ id: string; text: string }>(queries().paperTexts({ ids: [...ids] }));
    return new Map(rows.map((row) => [row.id, row.text]));
  }

  /** Citations between a paper of `a` and a paper of `b`, either direction: at most `limit` pairs (a's id, b's id). */
  async citationLinks(a: readonly string[], b: readonly string[], limit = 1): Promise<Array<{ a: string; b: string }>> {
    if (a.length === 0 || b.length === 0) return [];
    return this.executor.read<{ a: string; b: string }>(queries().citationLink({ a: [...a], b: [...b], limit }));
  }

  /** The metadata answers cite and the sufficiency score weighs, for papers behind evidence. */
  async evidencePapers(ids: readonly string[]): Promise<Map<string, EvidencePaperRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.executor.read<EvidencePaperRow>(queries().evidencePapers({ ids: [...ids] }));
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The stored embeddings of chunks (computed at ingest), so comparing passages needs no model run. */
  async chunkEmbeddings(ids: readonly string[]): Promise<Map<string, Float32Array>> {
    if (ids.length === 0) return new Map();
    const rows = await this.executor.read<{ id: string; embedding: number[] }>(
      queries().chunkEmbeddings({ ids: [...ids] }),
    );
    return new Map(rows.map((row) => [row.id, Float32Array.from(row.embedding)]));
  }
}
