// The seed papers of a topic set: the full papers whose title or abstract holds every content word of the phrase, best
// Lucene score first ($query is "+w1 +w2 …"), and the papers carrying a concept the phrase names ($concepts, or named
// exactly the phrase). Unfiltered:
// the seeds say what the topic means, the filters only which of its papers are counted.
CALL {
  CALL db.index.fulltext.queryNodes('paper_text', $query, {limit: $scan}) YIELD node AS p, score
  WHERE p.stub = false
  RETURN p, score
  UNION
  MATCH (t:Topic)
  WHERE toLower(t.name) = $phrase OR t.id IN $concepts
  MATCH (p:Paper {stub: false})-[r:HAS_TOPIC]->(t)
  WHERE r.score >= $minScore
  RETURN p, 0.0 AS score
}
WITH p, max(score) AS score
ORDER BY score DESC, p.id
LIMIT $limit
RETURN p.id AS id
