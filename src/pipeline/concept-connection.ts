/** Relational sufficiency judged: the key concepts of a question and whether the graph connects each pair of them. */
import type { Concept } from './concepts';

/** Fewest papers a concept needs in the graph to count as one the graph knows (fewer: specificity's business). */
export const MIN_CONCEPT_PAPERS = 2;
/** How many of the known concepts, the rarest, are the question's key concepts. */
export const KEY_CONCEPTS = 3;

/**
 * The key concepts: those the graph knows (MIN_CONCEPT_PAPERS or more papers), the KEY_CONCEPTS rarest, in question
 * order. Rare phrases name what a question is about; common ones ("therapy") join any two subjects.
 */
export function keyConcepts(concepts: readonly Concept[], paperCount: (concept: Concept) => number): Concept[] {
  return concepts
    .map((concept, index) => ({ concept, index, count: paperCount(concept) }))
    .filter((c) => c.count >= MIN_CONCEPT_PAPERS)
    .sort((a, b) => a.count - b.count || a.index - b.index)
    .slice(0, KEY_CONCEPTS)
    .sort((a, b) => a.index - b.index)
    .map((c) => c.concept);
}

/** What the graph says about a pair of concepts. */
export interface PairEvidence {
  /** Papers mentioning both (title or abstract). */
  together: string[];
  /** Whether a paper on one cites, or is cited by, a paper on the other. */
  cited: boolean;
  /**
   * Found through the question's best passages on one concept (which may word it otherwise), not its name alone: the
   * papers of those passages that a citation reaches.
   */
  bridging?: string[];
}

export interface ConceptConnection {
  concepts: Concept[];
  /** The key concepts (see keyConcepts). */
  known: Concept[];
  /** Pairs of known concepts no paper and no citation connects. */
  unconnected: Array<[string, string]>;
  /** Papers mentioning every known concept (a few), for the answer to quote. */
  connectingPapers: string[];
  /**
   * Papers of the question's evidence through which a pair is connected by citation (see PairEvidence.bridging): the
   * answer's context holds them, since they may word a concept otherwise.
   */
  bridgingPapers: string[];
  /**
   * Concepts no paper of the graph mentions at all (every word, title or abstract): the question is about something
   * the graph does not hold, whatever its passages on the other concepts say.
   */
  absent: string[];
  /** 0–100: share of known pairs that are connected (100 with fewer than two known concepts). */
  score: number;
  reason: string;
}

/**
 * Judges the connection from what the graph holds: the key concepts, `pairs` per "i|j" index pair of them, `all` the
 * papers mentioning every key concept. Pure: the queries are the caller's.
 */
export function judgeConnection(
  concepts: readonly Concept[],
  known: readonly Concept[],
  pairs: ReadonlyMap<string, PairEvidence>,
  all: readonly string[],
): ConceptConnection {
  const unconnected: Array<[string, string]> = [];
  const throughEvidence: string[] = [];
  const bridging = new Set<string>();
  let total = 0;
  for (let i = 0; i < known.length; i += 1) {
    for (let j = i + 1; j < known.length; j += 1) {
      total += 1;
      const pair = pairs.get(`${i}|${j}`);
      if (!pair || (pair.together.length === 0 && !pair.cited)) unconnected.push([known[i]!.phrase, known[j]!.phrase]);
      else if (pair.bridging) {
        throughEvidence.push(`"${known[i]!.phrase}" with "${known[j]!.phrase}"`);
        for (const id of pair.bridging) bridging.add(id);
      }
    }
  }
  const score = total === 0 ? 100 : Math.round((100 * (total - unconnected.length)) / total);
  const named = (list: readonly Concept[]) => list.map((c) => `"${c.phrase}"`).join(', ');
  const reason =
    known.length < 2
      ? `${known.length} of ${concepts.length} key concepts known to the graph${concepts.length ? ` (${named(concepts)})` : ''}`
      : unconnected.length === 0
        ? `the key concepts ${named(known)} are connected (${all.length} papers mention all of them${all.length === 0 ? '; pairs are joined by shared papers or citations' : ''}${throughEvidence.length > 0 ? `; ${throughEvidence.join(', ')} through citations between papers naming one and the question's best passages on the other (which may word it otherwise)` : ''})`
        : `no paper and no citation in the graph connects ${unconnected.map(([a, b]) => `"${a}" with "${b}"`).join('; ')}`;
  return {
    concepts: [...concepts],
    known: [...known],
    unconnected,
    absent: [],
    connectingPapers: [...all],
    bridgingPapers: unconnected.length === 0 ? [...bridging] : [],
    score,
    reason,
  };
}
