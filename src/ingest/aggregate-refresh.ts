import type { TransactionRunner } from '../graph/executor';
import { queries } from '../graph/query-registry';
import { STRONG_TOPIC_SCORE } from '../graph/schema';

/**
 * A paper's part in the stored aggregates as it stood before a write (aggregates/affected-before): whether it is
 * full, what it cites, its venue, its people (each once), its citation counts, year and topics.
 */
export interface PaperPart {
  id: string;
  full: boolean;
  cited: string[];
  venue: string | null;
  people: string[];
  global: number;
  internal: number;
  year: number | null;
  topics: Array<{ id: string; score: number | null }>;
}

/** Reads the parts of `papers` in the stored aggregates; run in the write's transaction, before the write. */
export async function affectedBefore(tx: TransactionRunner, papers: readonly string[]): Promise<PaperPart[]> {
  // Each paper once: a part counted twice would be taken off twice.
  const rows = await tx.run<{ state: PaperPart }>(queries().affectedBefore({ papers: [...new Set(papers)] }));
  return rows.map((row) => row.state);
}

/**
 * The update of the stored aggregates that follows a write to `written`, whose parts before it are `before`: it takes
 * off what they counted for and adds what they count for now (aggregates/refresh).
 */
export function refreshAggregates(before: PaperPart[], written: readonly string[]) {
  return queries().refreshAggregates({ written: [...new Set(written)], before, strongScore: STRONG_TOPIC_SCORE });
}
