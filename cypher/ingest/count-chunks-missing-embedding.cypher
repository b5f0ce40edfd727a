// How many chunks still lack an embedding (the whole of an `embed` run, for its progress).
MATCH (c:Chunk)
WHERE c.embedding IS NULL
RETURN count(c) AS missing
