// The text chunks of each of several papers in reading order, at most $limit each.
UNWIND $ids AS id
MATCH (:Paper {id: id})-[:HAS_CHUNK]->(c:Chunk)
WITH id, c ORDER BY c.ordinal
WITH id, collect(c {.id, .text, .ordinal, .tokenCount, .start, .end, .section, .paperId, .pageStart, .pageEnd,
                      field: coalesce(c.field, CASE c.section WHEN 'title' THEN 'title' ELSE 'abstract' END)}) AS chunks
RETURN id AS paperId, chunks[..$limit] AS chunks
