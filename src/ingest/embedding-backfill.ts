import { MODEL_VECTORS, type VectorField } from '../embedding/embedding-space';
import { queries } from '../graph/query-registry';
import type { IngestDependencies } from './ingest-types';
import { embeddingInput } from './paper-rows';
import { Progress } from './progress';
import { WriteBehind } from './write-behind';

/**
 * Embeds every chunk that has no vector in `field` yet (chunks ingested with deferred embedding, or every chunk for a
 * companion model just set), with `deps.embedder`, the field's model. Resumable. Chunks are read in id order, and each
 * batch's vectors are written while the next batch is embedded.
 */
export async function embedMissing(
  deps: Pick<IngestDependencies, 'executor' | 'embedder'>,
  batchSize = 256,
  progressEnabled = Boolean(process.stderr.isTTY),
  field: VectorField = MODEL_VECTORS,
): Promise<{ embedded: number; embedMs: number; writeMs: number }> {
  const property = field.property;
  const q = queries();
  const progress = new Progress(progressEnabled);
  const [{ missing } = { missing: 0 }] = await deps.executor.read<{ missing: number }>(
    q.countChunksMissingEmbedding({ property }),
  );
  let embedded = 0;
  let embedMs = 0;
  let writeMs = 0;
  const writes = new WriteBehind();
  const write = async (rows: Array<{ id: string }>, vectors: Float32Array[]): Promise<void> => {
    const started = Date.now();
    await deps.executor.write(
      q.setChunkEmbeddings({
        property,
        rows: rows.map((row, index) => ({ id: row.id, embedding: Array.from(vectors[index]!) })),
      }),
    );
    writeMs += Date.now() - started;
    embedded += rows.length;
    progress.update('embedding:', embedded, 'chunks', missing > 0 ? embedded / missing : undefined);
  };
  try {
    for (let after = ''; ;) {
      const rows = await deps.executor.read<{
        id: string;
        text: string;
        paperTitle: string | null;
        section: string;
      }>(q.chunksMissingEmbedding({ limit: batchSize, after, property }));
      if (rows.length === 0) break;
      after = rows[rows.length - 1]!.id;
      const embedder = await deps.embedder();
      const started = Date.now();
      const vectors = await embedder.embed(
        rows.map((row) => embeddingInput(row.paperTitle, row.text, row.section ?? 'abstract')),
      );
      embedMs += Date.now() - started;
      await writes.push(() => write(rows, vectors));
    }
  } catch (error) {
    await writes.settle();
    throw error;
  }
  await writes.drain();
  progress.done();
  return { embedded, embedMs, writeMs };
}
