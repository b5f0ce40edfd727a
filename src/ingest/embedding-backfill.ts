import { queries } from '../graph/query-registry';
import type { IngestDependencies } from './ingest-types';
import { embeddingInput } from './paper-rows';
import { Progress } from './progress';

/** Embeds every chunk that has no embedding yet (chunks ingested with deferred embedding). Resumable. */
export async function embedMissing(
  deps: Pick<IngestDependencies, 'executor' | 'embedder'>,
  batchSize = 256,
  progressEnabled = Boolean(process.stderr.isTTY),
): Promise<{ embedded: number; embedMs: number; writeMs: number }> {
  const q = queries();
  const progress = new Progress(progressEnabled);
  const [{ missing } = { missing: 0 }] = await deps.executor.read<{ missing: number }>(
    q.countChunksMissingEmbedding({}),
  );
  let embedded = 0;
  let embedMs = 0;
  let writeMs = 0;
  for (;;) {
    const rows = await deps.executor.read<{
      id: string;
      text: string;
      paperTitle: string | null;
      section: string;
    }>(q.chunksMissingEmbedding({ limit: batchSize }));
    if (rows.length === 0) break;
    const embedder = await deps.embedder();
    let started = Date.now();
    const vectors = await embedder.embed(
      rows.map((row) => embeddingInput(row.paperTitle, row.text, row.section ?? 'abstract')),
    );
    embedMs += Date.now() - started;
    started = Date.now();
    await deps.executor.write(
      q.setChunkEmbeddings({
        rows: rows.map((row, index) => ({ id: row.id, embedding: Array.from(vectors[index]!) })),
      }),
    );
    writeMs += Date.now() - started;
    embedded += rows.length;
    progress.update('embedding:', embedded, 'chunks', missing > 0 ? embedded / missing : undefined);
  }
  progress.done();
  return { embedded, embedMs, writeMs };
}
