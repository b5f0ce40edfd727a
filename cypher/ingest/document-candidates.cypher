// Papers a document may be: the one already holding this file (same content hash), the one with its DOI, and the
// papers whose title matches best ($titleQuery searches titles only; the caller compares normalised titles).
CALL () {
  MATCH (p:Paper {documentHash: $hash})
  RETURN p, 'hash' AS by
  UNION
  MATCH (p:Paper {doi: $doi})
  RETURN p, 'doi' AS by
  UNION
  CALL db.index.fulltext.queryNodes('paper_text', $titleQuery, {limit: 10}) YIELD node
  WHERE node.title IS NOT NULL
  RETURN node AS p, 'title' AS by
}
RETURN p.id AS id, p.title AS title, p.year AS year, p.doi AS doi, coalesce(p.stub, false) AS stub,
       p.documentHash AS documentHash, p.documentChunking AS documentChunking, by
