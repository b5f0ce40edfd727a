// Nearest chunks to a query vector (cosine), with their papers; stubs never come back as evidence.
CALL db.index.vector.queryNodes('chunk_embedding', $k, $vector) YIELD node, score
MATCH (p:Paper)-[:HAS_CHUNK]->(node)
WHERE p.stub = false
  AND ($collections IS NULL OR any(c IN p.collections WHERE c IN $collections))
RETURN node.id AS chunkId, p.id AS paperId, node.text AS text, node.start AS start, node.end AS end, score
ORDER BY score DESC
