// Chunk embeddings of candidate papers (for diversification and the similarity graph).
UNWIND $paperIds AS paperId
MATCH (:Paper {id: paperId})-[:HAS_CHUNK]->(c:Chunk)
WHERE c.embedding IS NOT NULL
RETURN paperId, c.embedding AS embedding
