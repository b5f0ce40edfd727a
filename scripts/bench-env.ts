import path from 'node:path';
import { PROJECT_ROOT } from '../src/config/settings';

/** The benchmarks' own embedded Neo4j: port 7698, store .data/neo4j-bench (bench-ingest --keep fills it). */
export const BENCH_ENV = {
  CITEGRAPH_NEO4J_PORT: '7698',
  CITEGRAPH_NEO4J_DATA: path.join(PROJECT_ROOT, '.data', 'neo4j-bench'),
  CITEGRAPH_NEO4J_PAGECACHE: '2g',
  CITEGRAPH_NEO4J_HEAP: '4g',
};
