import type { GraphExecutor } from '../graph/executor';
import { paperFilterParams, queries } from '../graph/query-registry';
import { InMemoryDocumentFrequencies } from './expansion';

/** Document frequencies over the titles and abstracts of the full papers of some collections (all when null). */
export async function readDocumentFrequencies(
  executor: GraphExecutor,
  collections: readonly string[] | null,
): Promise<InMemoryDocumentFrequencies> {
  const frequencies = new InMemoryDocumentFrequencies();
  const filter = paperFilterParams({ collections });
  const pageSize = 5000;
  let after = '';
  for (;;) {
    const rows = await executor.read<{ id: string; text: string }>(
      queries().corpusTexts({ ...filter, after, limit: pageSize }),
    );
    for (const row of rows) frequencies.add(row.text);
    if (rows.length < pageSize) return frequencies;
    after = rows[rows.length - 1]!.id;
  }
}
