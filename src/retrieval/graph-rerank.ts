/** The graph's reranking stages of search: the citation signal among the top candidates, and personalised PageRank. */
import { cosine } from '../embedding/embedder';
import type { GraphExecutor } from '../graph/executor';
import { queries } from '../graph/query-registry';
import { personalisedPageRank } from './rerank';
import type { Candidate, SearchOptions } from './search-types';

/**
 * The citation signal among the head of a ranking: candidates co-cited with, coupled to or citing the top seeds move
 * up by a boost relative to the head's fused scores; the seeds keep their places.
 */
export async function citationBoost(
  executor: GraphExecutor,
  ranked: Candidate[],
  options: SearchOptions,
): Promise<Candidate[]> {
  const depth = Math.min(options.rerankDepth, ranked.length);
  const head = ranked.slice(0, depth);
  const seeds = head.slice(0, options.citationSeeds).map((c) => c.id);
  const rows = await executor.read<{ paperId: string; cocited: number; coupled: number; direct: number }>(
    queries().citationSignal({ candidateIds: head.map((c) => c.id), seedIds: seeds }),
  );
  const signal = new Map(rows.map((row) => [row.paperId, row]));
  // The boost is relative to the head's fused scores so that it is comparable whatever the RRF weights are.
  // The seeds keep their places: the signal says which other candidates belong with them.
  const scale = head[0]!.score;
  const boosted = head.slice(seeds.length).map((candidate) => {
    const s = signal.get(candidate.id);
    if (!s) return candidate;
    const strength = Math.log1p(s.cocited) + Math.log1p(s.coupled) * 0.5 + Math.log1p(s.direct);
    const boost = options.citationWeight * scale * (strength / (1 + strength));
    return {
      ...candidate,
      score: candidate.score + boost,
      citation: { cocited: s.cocited, coupled: s.coupled, direct: s.direct, boost },
    };
  });
  boosted.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const seedRows = head.slice(0, seeds.length).map((candidate) => {
    const s = signal.get(candidate.id);
    return s
      ? { ...candidate, citation: { cocited: s.cocited, coupled: s.coupled, direct: s.direct, boost: 0 } }
      : candidate;
  });
  return [...seedRows, ...boosted, ...ranked.slice(depth)];
}

/** Personalised PageRank over the similarity graph of the head of a ranking, seeded by similarity to the query. */
export function pagerankRerank(
  ranked: Candidate[],
  vectors: Map<string, Float32Array>,
  query: Float32Array,
  options: SearchOptions,
): Candidate[] {
  const depth = Math.min(options.rerankDepth, ranked.length);
  const head = ranked.slice(0, depth);
  const ids = head.map((c) => c.id);
  const similarity = new Map(ids.map((id) => [id, vectors.has(id) ? cosine(vectors.get(id)!, query) : 0]));
  const pr = personalisedPageRank(ids, vectors, similarity, {
    threshold: options.pagerankThreshold,
    damping: options.pagerankDamping,
  });
  const maxPr = Math.max(...pr.values()) || 1;
  const scale = head[0]!.score;
  const reranked = head.map((candidate) => {
    const value = pr.get(candidate.id) ?? 0;
    return {
      ...candidate,
      pagerank: value,
      score: candidate.score + options.pagerankWeight * scale * (value / maxPr),
    };
  });
  reranked.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return [...reranked, ...ranked.slice(depth)];
}
