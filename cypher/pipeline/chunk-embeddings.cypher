// Stored embeddings of chunks (computed at ingest), so that comparing passages needs no model run.
UNWIND $ids AS id
MATCH (c:Chunk {id: id})
WHERE c.embedding IS NOT NULL
RETURN c.id AS id, c.embedding AS embedding
