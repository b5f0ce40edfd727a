// Exact cosine over the chunks of the filtered papers, with the vectors in $property: used when filters are so narrow
// that the approximate index cannot give enough hits inside them.
MATCH (p:Paper)-[:HAS_CHUNK]->(c:Chunk)
WHERE p.stub = false AND c[$property] IS NOT NULL
  // include: fragments/paper-filter
WITH p, c, vector.similarity.cosine(c[$property], $vector) AS score
ORDER BY score DESC
LIMIT $k
RETURN c.id AS chunkId, p.id AS paperId, c.start AS start, c.end AS end, score
