// Field-normalised citation impact inside the graph, per paper: its internal citations over the mean internal
// citations of the full papers of the same year in the same field. The field is the paper's strongest topic of level 1
// (an OpenAlex subfield-level concept), else its strongest topic. The field's papers and their internal citations in
// that year are the yearly counts every write keeps (TopicYear, see aggregates/refresh), not a read of every peer.
UNWIND $ids AS id
MATCH (p:Paper {id: id})
WHERE p.stub = false AND p.year IS NOT NULL
CALL (p) {
  MATCH (p)-[r:HAS_TOPIC]->(t:Topic)
  RETURN t
  ORDER BY CASE WHEN t.level = 1 THEN 0 ELSE 1 END, r.score DESC, t.id
  LIMIT 1
}
OPTIONAL MATCH (c:TopicYear {topic: t.id, year: p.year})
RETURN p.id AS id, p.year AS year, t {.*} AS field, p.internalCitedBy AS citations, coalesce(c.papers, 0) AS peers,
       CASE WHEN c.papers > 0 THEN toFloat(c.internal) / c.papers END AS expected
