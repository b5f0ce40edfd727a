// Chunks of papers whose content changed: the old chunks go, the new ones come with their embeddings (when given;
// chunks ingested with deferred embedding get theirs from `citegraph embed`). Chunks of a document's full text
// (field "text") belong to the document and stay.
UNWIND $papers AS paperId
OPTIONAL MATCH (:Paper {id: paperId})-[:HAS_CHUNK]->(old:Chunk)
WHERE coalesce(old.field, '') <> 'text'
DETACH DELETE old
WITH count(*) AS removed
UNWIND $chunks AS row
MATCH (p:Paper {id: row.paperId})
CREATE (c:Chunk {id: row.id})
SET c.text = row.text, c.ordinal = row.ordinal, c.tokenCount = row.tokenCount,
    c.start = row.start, c.end = row.end, c.section = row.section, c.paperId = row.paperId, c.paperTitle = row.paperTitle
CREATE (p)-[:HAS_CHUNK]->(c)
WITH c, row
CALL (c, row) {
  WITH c, row
  WHERE row.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(c, 'embedding', row.embedding)
}
RETURN count(c) AS chunks
