// The text chunks of each of several papers in reading order, at most $limit each.
UNWIND $ids AS id
MATCH (:Paper {id: id})-[:HAS_CHUNK]->(c:Chunk)
WITH id, c ORDER BY c.ordinal
WITH id, collect(c {.id, .text, .ordinal, .tokenCount, .start, .end, .section, .paperId}) AS chunks
RETURN id AS paperId, chunks[..$limit] AS chunks
