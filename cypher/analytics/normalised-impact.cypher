// Field-normalised citation impact inside the graph, per paper: its internal citations over the mean internal
// citations of the full papers of the same year in the same field. The field is the paper's strongest topic of level 1
// (an OpenAlex subfield-level concept), else its strongest topic.
UNWIND $ids AS id
MATCH (p:Paper {id: id})
WHERE p.stub = false AND p.year IS NOT NULL
CALL (p) {
  MATCH (p)-[r:HAS_TOPIC]->(t:Topic)
  RETURN t
  ORDER BY CASE WHEN t.level = 1 THEN 0 ELSE 1 END, r.score DESC, t.id
  LIMIT 1
}
WITH p, t, COUNT { (p)<-[:CITES]-(:Paper {stub: false}) } AS citations
CALL (p, t) {
  MATCH (q:Paper)-[:HAS_TOPIC]->(t)
  WHERE q.stub = false AND q.year = p.year
  RETURN count(q) AS peers, avg(toFloat(COUNT { (q)<-[:CITES]-(:Paper {stub: false}) })) AS expected
}
RETURN p.id AS id, p.year AS year, t {.*} AS field, citations, peers, expected
