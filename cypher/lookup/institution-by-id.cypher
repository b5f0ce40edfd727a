// One institution and the number of full papers of its authors.
MATCH (i:Institution {id: $id})
CALL (i) {
  MATCH (i)<-[:AFFILIATED_WITH]-(:Author)-[:AUTHORED]->(p:Paper {stub: false})
  RETURN count(DISTINCT p) AS papers
}
RETURN i {.*} AS institution, papers
