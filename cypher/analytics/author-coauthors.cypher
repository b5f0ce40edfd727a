// Co-authors with the number of papers written together (within the filter). A co-author's records sharing an ORCID
// are one person, shown by the record with the smallest id; the author's own other records are not co-authors.
MATCH (a:Author {id: $id})-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(co:Author)
WHERE co <> a AND p.stub = false AND (a.orcid IS NULL OR co.orcid IS NULL OR co.orcid <> a.orcid)
  // include: fragments/paper-filter
WITH coalesce('orcid:' + co.orcid, co.id) AS person, p, min(co.id) AS record
WITH person, count(p) AS joint, min(record) AS record
ORDER BY joint DESC, record
WITH collect([record, joint]) AS rows
CALL (rows) {
  UNWIND rows[$skip..($skip + $limit)] AS r
  MATCH (co:Author {id: r[0]})
  RETURN collect({author: properties(co), joint: r[1]}) AS items
}
RETURN size(rows) AS total, items
