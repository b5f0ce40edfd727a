// Approximate nearest chunks (HNSW, cosine), over-fetched by $limit, then filtered to full papers.
CALL db.index.vector.queryNodes('chunk_embedding', $limit, $vector) YIELD node AS c, score
MATCH (p:Paper)-[:HAS_CHUNK]->(c)
WHERE p.stub = false
  AND ($collections IS NULL OR any(c IN p.collections WHERE c IN $collections))
  AND ($yearFrom IS NULL OR p.year >= $yearFrom)
  AND ($yearTo IS NULL OR p.year <= $yearTo)
  AND ($topics IS NULL OR EXISTS { (p)-[:HAS_TOPIC]->(t:Topic) WHERE t.id IN $topics })
  AND ($authors IS NULL OR EXISTS { (p)<-[:AUTHORED]-(a:Author) WHERE a.id IN $authors })
  AND ($venues IS NULL OR EXISTS { (p)-[:PUBLISHED_IN]->(v:Venue) WHERE v.id IN $venues })
RETURN c.id AS chunkId, p.id AS paperId, c.start AS start, c.end AS end, score
ORDER BY score DESC
LIMIT $k
