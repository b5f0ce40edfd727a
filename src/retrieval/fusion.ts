/** One retriever's ranked list (best first) and its weight in the fusion. */
export interface RankedList {
  readonly name: string;
  readonly weight: number;
  readonly ids: readonly string[];
  readonly scores?: readonly number[];
}

/** A retriever's hits as a list to fuse: its name, its weight, the papers in rank order and their scores. */
export function rankedList(
  name: string,
  weight: number,
  hits: ReadonlyArray<{ paperId: string; score: number }>,
): RankedList {
  return { name, weight, ids: hits.map((hit) => hit.paperId), scores: hits.map((hit) => hit.score) };
}

export interface FusedItem {
  readonly id: string;
  readonly score: number;
  /** 1-based rank and raw score per retriever that returned the item. */
  readonly ranks: Readonly<Record<string, { rank: number; score: number | undefined }>>;
}

/**
 * Weighted reciprocal rank fusion: score(d) = Σ_i w_i / (K + rank_i(d)), ranks 1-based, summed over the retrievers
 * that returned d. Ties break by id so that the order is deterministic.
 */
export function weightedRrf(lists: readonly RankedList[], k: number): FusedItem[] {
  const fused = new Map<
    string,
    { score: number; ranks: Record<string, { rank: number; score: number | undefined }> }
  >();
  for (const list of lists) {
    list.ids.forEach((id, index) => {
      const entry = fused.get(id) ?? { score: 0, ranks: {} };
      if (entry.ranks[list.name]) return; // an id listed twice counts once, at its best rank
      entry.score += list.weight / (k + index + 1);
      entry.ranks[list.name] = { rank: index + 1, score: list.scores?.[index] };
      fused.set(id, entry);
    });
  }
  return [...fused.entries()]
    .map(([id, entry]) => ({ id, score: entry.score, ranks: entry.ranks }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Chunk hits rolled up to papers: max or sum of chunk scores, keeping each paper's best chunk ids. */
export function aggregateChunks(
  hits: ReadonlyArray<{ paperId: string; chunkId: string; score: number }>,
  mode: 'max' | 'sum',
): Array<{ paperId: string; score: number; chunkIds: string[] }> {
  const papers = new Map<string, { score: number; chunkIds: string[] }>();
  for (const hit of hits) {
    const entry = papers.get(hit.paperId);
    if (!entry) {
      papers.set(hit.paperId, { score: hit.score, chunkIds: [hit.chunkId] });
      continue;
    }
    entry.score = mode === 'max' ? Math.max(entry.score, hit.score) : entry.score + hit.score;
    entry.chunkIds.push(hit.chunkId);
  }
  return [...papers.entries()]
    .map(([paperId, entry]) => ({ paperId, ...entry }))
    .sort((a, b) => b.score - a.score || (a.paperId < b.paperId ? -1 : 1));
}
