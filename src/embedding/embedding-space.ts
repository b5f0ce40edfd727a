/**
 * An embedding space of the graph: which model the chunk vectors of one property come from, recorded on the graph
 * (cypher/schema/embedding-space.cypher), so that vectors of two models are never compared — a query embedded by one
 * model against chunks embedded by another ranks noise — and a change of model re-embeds every chunk. The service's
 * model has one space (`embedding`); a companion model (CITEGRAPH_COMPANION_MODEL) has another, whose vectors are a
 * second dense list in search.
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

/** Where one model's chunk vectors live: the record of its model, the chunk property and its vector index. */
export interface VectorField {
  readonly space: string;
  readonly property: string;
  readonly index: string;
  /** The setting that names its model, for messages. */
  readonly setting: string;
  /** The `citegraph embed` option that changes its model. */
  readonly option: string;
}

/** The service's model's vectors: every cosine of search, ask and the analytics. */
export const MODEL_VECTORS: VectorField = {
  space: 'chunks',
  property: 'embedding',
  index: 'chunk_embedding',
  setting: 'CITEGRAPH_EMBEDDING_MODEL',
  option: '--model',
};

/** A companion model's vectors: a second dense list in search's fusion, nothing else. */
export const COMPANION_VECTORS: VectorField = {
  space: 'chunks-companion',
  property: 'companionEmbedding',
  index: 'chunk_companion_embedding',
  setting: 'CITEGRAPH_COMPANION_MODEL',
  option: '--companion',
};

export class EmbeddingSpace {
  private checked: Promise<void> | null = null;

  constructor(
    private readonly executor: GraphExecutor,
    /** The model this service embeds with (settings.model.name, or settings.model.companion for the companion). */
    readonly model: string,
    readonly field: VectorField = MODEL_VECTORS,
  ) {}

  /** The model the graph's vectors come from: null on a graph without vectors and without a record. */
  async recorded(): Promise<string | null> {
    return (await this.read()).model;
  }

  private async read(): Promise<{ model: string | null; written: boolean }> {
    const [row] = await this.executor.read<{ model: string | null; hasVectors: boolean }>(
      queries().embeddingSpace({ space: this.field.space, property: this.field.property }),
    );
    // Only the model's own space predates the record.
    const unrecorded = this.field === MODEL_VECTORS ? UNRECORDED_MODEL : null;
    return {
      model: row?.model ?? (row?.hasVectors ? unrecorded : null),
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
      if (!written) await this.record(recorded ?? this.model);
      return;
    }
    const whose = this.field === MODEL_VECTORS ? '' : 'companion ';
    throw new ModelMismatch(
      `the graph's ${whose}chunk vectors come from the embedding model "${recorded}", and this service embeds ${whose ? 'its companion vectors ' : ''}with "${this.model}" (${this.field.setting}): vectors of two models cannot be compared. Re-embed the graph with \`citegraph embed ${this.field.option} ${this.model}\`, or set ${this.field.setting}=${recorded}`,
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
        const [row] = await this.executor.write<{ cleared: number }>(
          queries().clearChunkEmbeddings({ limit: batch, property: this.field.property }),
        );
        removed += row?.cleared ?? 0;
        if (!row?.cleared) break;
      }
    }
    await this.record(this.model);
    this.checked = null;
    return removed;
  }

  private async record(model: string): Promise<void> {
    await this.executor.write(queries().recordEmbeddingSpace({ space: this.field.space, model }));
  }
}
