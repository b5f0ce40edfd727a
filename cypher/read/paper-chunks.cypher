MATCH (:Paper {id: $id})-[:HAS_CHUNK]->(c:Chunk)
RETURN c {.id, .text, .ordinal, .tokenCount, .start, .end, .section, .paperId} AS chunk
ORDER BY c.ordinal
