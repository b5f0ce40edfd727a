// Approximate nearest chunks (HNSW, cosine) in the vector index $index (the model's `chunk_embedding`, or the
// companion model's `chunk_companion_embedding`), over-fetched by $limit, then filtered to full papers.
CALL db.index.vector.queryNodes($index, $limit, $vector) YIELD node AS c, score
MATCH (p:Paper)-[:HAS_CHUNK]->(c)
WHERE p.stub = false
  // include: fragments/paper-filter
RETURN c.id AS chunkId, p.id AS paperId, c.start AS start, c.end AS end, score
ORDER BY score DESC
LIMIT $k
