import { queries } from '../graph/query-registry';
import { affectedBefore, refreshAggregates } from './aggregate-refresh';
import type { IngestDependencies } from './ingest-types';

/** What deleting a collection did. */
export interface CollectionDeletion {
  collection: string;
  /** Papers that were in the collection. */
  papers: number;
  /** Papers removed from the graph (in no other collection, cited by no full paper). */
  deleted: number;
  /** Papers kept as stubs because a full paper still cites them. */
  stubbed: number;
  /** Stubs, authors, institutions, venues and topics removed because nothing refers to them any more. */
  orphans: number;
}

/**
 * Deletes a collection: its papers leave it; a paper in no other collection goes with its chunks and edges (or stays
 * as a stub while a full paper still cites it), and the stubs, authors, institutions, venues and topics left with no
 * reason to exist go too. Each batch is one transaction; a re-run finishes an interrupted deletion.
 */
export async function deleteCollection(
  deps: Pick<IngestDependencies, 'executor' | 'ingest'>,
  collection: string,
): Promise<CollectionDeletion> {
  const q = queries();
  const ids = (await deps.executor.read<{ id: string }>(q.papersInCollection({ collection }))).map((row) => row.id);
  const result: CollectionDeletion = { collection, papers: ids.length, deleted: 0, stubbed: 0, orphans: 0 };
  for (let offset = 0; offset < ids.length; offset += deps.ingest.batchSize) {
    const batch = ids.slice(offset, offset + deps.ingest.batchSize);
    await deps.executor.writeTransaction(`delete collection ${collection}`, async (tx) => {
      const left = await tx.run<{
        id: string;
        stubs: string[];
        authors: string[];
        venues: string[];
        topics: string[];
      }>(q.leaveCollection({ ids: batch, collection }));
      if (left.length === 0) return;
      const before = await affectedBefore(
        tx,
        left.map((row) => row.id),
      );
      const [removed] = await tx.run<{ deleted: number; stubbed: string[] }>(
        q.removePapers({ ids: left.map((row) => row.id) }),
      );
      const unique = (lists: string[][]) => [...new Set(lists.flat())];
      const [orphans] = await tx.run<Record<string, number>>(
        q.removeOrphans({
          stubs: unique([...left.map((row) => row.stubs), removed?.stubbed ?? []]),
          authors: unique(left.map((row) => row.authors)),
          venues: unique(left.map((row) => row.venues)),
          topics: unique(left.map((row) => row.topics)),
        }),
      );
      // The papers left are deleted or, still cited by a full paper, made stubs: either way written.
      await tx.run(
        refreshAggregates(
          before,
          left.map((row) => row.id),
        ),
      );
      result.deleted += removed?.deleted ?? 0;
      result.stubbed += removed?.stubbed.length ?? 0;
      result.orphans += Object.values(orphans ?? {}).reduce((sum, n) => sum + n, 0);
    });
  }
  return result;
}
