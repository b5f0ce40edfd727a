/**
 * The embedding space of the graph: which model its chunk vectors come from, recorded on the graph
 * (cypher/schema/embedding-space.cypher), so that vectors of two models are never compared — a query embedded by one
 * model against chunks embedded by another ranks noise — and a change of model re-embeds every chunk.
 */
import { CitegraphError, ErrorCode } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import { queries } from '../graph/query-registry';

/** The graph's vectors are another model's than the service's. */
class ModelMismatch extends CitegraphError {
  constructor(message: string) {
    super(ErrorCode.MODEL_UNAVAILABLE, message);
  }
}

/** The model vectors were made with before the graph recorded one: the only model there was. */
export const UNRECORDED_MODEL = 'minilm';

export class EmbeddingSpace {
  private checked: Promise<void> | null = null;

  constructor(
    private readonly executor: GraphExecutor,
    /** The model this service embeds with (settings.model.name). */
    readonly model: string,
  ) {}

  /** The model the graph's vectors come from: null on a graph without vectors and without a record. */
  async recorded(): Promise<string | null> {
    return (await this.read()).model;
  }

  private async read(): Promise<{ model: string | null; written: boolean }> {
    const [row] = await this.executor.read<{ model: string | null; hasVectors: boolean }>(queries().embeddingSpace({}));
    return {
      model: row?.model ?? (row?.hasVectors ? UNRECORDED_MODEL : null),
      written: !!row?.model,
    };
  }

  /**
   * Resolves when the graph's vectors are this service's model's, recording it on a graph that has none; fails with
   * what to do when they are another model's. A success is remembered. A graph that cannot be read (the database down)
   * has no vectors to mix up for now: the model is used, and the graph is compared on the next call.
   */
  check(): Promise<void> {
    this.checked ??= this.compare().catch((error: unknown) => {
      this.checked = null;
      if (error instanceof ModelMismatch) throw error;
    });
    return this.checked;
  }

  private async compare(): Promise<void> {
    const { model: recorded, written } = await this.read();
    if (recorded === null || recorded === this.model) {
      if (!written) await this.executor.write(queries().recordEmbeddingSpace({ model: recorded ?? this.model }));
      return;
    }
    throw new ModelMismatch(
      `the graph's chunk vectors come from the embedding model "${recorded}", and this service embeds with "${this.model}" (CITEGRAPH_EMBEDDING_MODEL): vectors of two models cannot be compared. Re-embed the graph with \`citegraph embed --model ${this.model}\`, or set CITEGRAPH_EMBEDDING_MODEL=${recorded}`,
    );
  }

  /**
   * Makes this service's model the graph's: removes every chunk vector of the other model (papers' and document sets'),
   * in batches, then records this one (`embedMissing` then embeds the chunks anew). Interrupted while removing, the
   * graph still records the old model over the vectors left; interrupted while embedding, it records the new one over
   * the vectors made so far: never two models at once, and running the change again finishes it. Returns how many
   * vectors it removed.
   */
  async switchTo(batch = 10_000): Promise<number> {
    let removed = 0;
    if ((await this.recorded()) !== this.model) {
      for (;;) {
        const [row] = await this.executor.write<{ cleared: number }>(queries().clearChunkEmbeddings({ limit: batch }));
        removed += row?.cleared ?? 0;
        if (!row?.cleared) break;
      }
    }
    await this.executor.write(queries().recordEmbeddingSpace({ model: this.model }));
    this.checked = null;
    return removed;
  }
}
