// Exact cosine over the chunks of the filtered papers: used when filters are so narrow that the approximate index
// cannot give enough hits inside them.
MATCH (p:Paper)-[:HAS_CHUNK]->(c:Chunk)
WHERE p.stub = false AND c.embedding IS NOT NULL
  AND ($collections IS NULL OR any(c IN p.collections WHERE c IN $collections))
  AND ($yearFrom IS NULL OR p.year >= $yearFrom)
  AND ($yearTo IS NULL OR p.year <= $yearTo)
  AND ($topics IS NULL OR EXISTS { (p)-[:HAS_TOPIC]->(t:Topic) WHERE t.id IN $topics })
  AND ($authors IS NULL OR EXISTS { (p)<-[:AUTHORED]-(a:Author) WHERE a.id IN $authors })
  AND ($venues IS NULL OR EXISTS { (p)-[:PUBLISHED_IN]->(v:Venue) WHERE v.id IN $venues })
WITH p, c, vector.similarity.cosine(c.embedding, $vector) AS score
ORDER BY score DESC
LIMIT $k
RETURN c.id AS chunkId, p.id AS paperId, c.start AS start, c.end AS end, score
