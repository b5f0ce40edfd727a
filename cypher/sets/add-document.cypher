// Adds one read, chunked and embedded document to a live set in one statement: the document node, its chunks
// (labels of their own, so no shared index sees them) and REFERS_TO edges to the graph papers its references resolved
// to. Nothing is written when the set has expired or already holds $maxDocuments documents. The set is written before
// its documents are counted: that takes its write lock until commit, so concurrent uploads count one after the other
// and the cap holds.
MATCH (s:DocumentSet {id: $setId})
WHERE s.expiresAt > $now
SET s.lockedAt = $now
WITH s
WHERE COUNT { (s)-[:HOLDS]->(:SetDocument) } < $maxDocuments
CREATE (d:SetDocument {id: $document.id})
SET d += $document, d.setId = s.id, d.addedAt = $now
CREATE (s)-[:HOLDS]->(d)
WITH s, d
CALL (d) {
  UNWIND $chunks AS row
  CREATE (c:SetChunk {id: row.id})
  SET c.setId = d.setId, c.documentId = d.id, c.text = row.text, c.ordinal = row.ordinal, c.start = row.start,
      c.end = row.end, c.section = row.section, c.sectionKind = row.sectionKind, c.pageStart = row.pageStart,
      c.pageEnd = row.pageEnd, c.embedding = row.embedding
  CREATE (d)-[:HAS_SET_CHUNK]->(c)
  RETURN count(c) AS chunks
}
CALL (d) {
  UNWIND $references AS paperId
  MATCH (q:Paper {id: paperId})
  MERGE (d)-[:REFERS_TO]->(q)
  RETURN count(q) AS resolved
}
RETURN d.id AS id, chunks, resolved
