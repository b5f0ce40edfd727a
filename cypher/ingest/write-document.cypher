// A document becomes a paper's full text: a new paper (source "document") or one already in the graph, whose
// abstract and metadata are kept. Its text chunks replace the ones an earlier version of the document gave (chunks
// of the abstract stay), and so do the citations its reference list gave.
MERGE (p:Paper {id: $paperId})
ON CREATE SET p += $newProps, p.stub = false
SET p.stub = false, p += $documentProps,
    p.collections = CASE WHEN $collection IN coalesce(p.collections, []) THEN p.collections
                         ELSE coalesce(p.collections, []) + $collection END
WITH p
OPTIONAL MATCH (p)-[:HAS_CHUNK]->(old:Chunk {field: 'text'})
DETACH DELETE old
WITH DISTINCT p
OPTIONAL MATCH (p)-[old:CITES {fromDocument: true}]->(:Paper)
DELETE old
WITH DISTINCT p
CALL (p) {
  UNWIND $chunks AS row
  CREATE (c:Chunk {id: row.id})
  SET c.text = row.text, c.ordinal = row.ordinal, c.tokenCount = row.tokenCount, c.start = row.start, c.end = row.end,
      c.section = row.section, c.sectionKind = row.sectionKind, c.field = 'text', c.pageStart = row.pageStart,
      c.pageEnd = row.pageEnd, c.paperId = p.id, c.paperTitle = p.title
  CREATE (p)-[:HAS_CHUNK]->(c)
  WITH c, row
  CALL (c, row) {
    WITH c, row
    WHERE row.embedding IS NOT NULL
    CALL db.create.setNodeVectorProperty(c, 'embedding', row.embedding)
  }
  RETURN count(c) AS chunks
}
CALL (p) {
  UNWIND $references AS ref
  MERGE (q:Paper {id: ref.id})
  ON CREATE SET q.stub = true, q.doi = ref.doi, q.rawReference = ref.raw, q.title = ref.title, q.year = ref.year,
                q.resolvedBy = ref.resolvedBy
  MERGE (p)-[r:CITES]->(q)
  ON CREATE SET r.fromDocument = true
  RETURN count(q) AS references
}
RETURN p.id AS id, chunks, references
