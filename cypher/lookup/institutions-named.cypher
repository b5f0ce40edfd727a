// Institutions whose name matches a Lucene query over names (institution_name), best match first, ties by the
// number of their authors' full papers.
CALL db.index.fulltext.queryNodes('institution_name', $query, {limit: $scan}) YIELD node AS i, score
CALL (i) {
  MATCH (i)<-[:AFFILIATED_WITH]-(:Author)-[:AUTHORED]->(p:Paper {stub: false})
  RETURN count(DISTINCT p) AS papers
}
WITH i, score, papers
ORDER BY score DESC, papers DESC, i.id
LIMIT $limit
RETURN i {.*} AS institution, score, papers
