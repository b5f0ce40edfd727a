// Nodes left with no reason to exist after papers were removed: stubs nobody cites, authors of no paper (then the
// institutions of no author), venues and topics of no paper. Only the candidates given are looked at.
CALL () {
  UNWIND $stubs AS id
  MATCH (s:Paper {id: id})
  WHERE s.stub = true AND NOT EXISTS { (s)<-[:CITES]-() }
  DETACH DELETE s
  RETURN count(*) AS stubs
}
CALL () {
  UNWIND $authors AS id
  MATCH (a:Author {id: id})
  WHERE NOT EXISTS { (a)-[:AUTHORED]->() }
  OPTIONAL MATCH (a)-[:AFFILIATED_WITH]->(i:Institution)
  WITH a, collect(i.id) AS places
  DETACH DELETE a
  RETURN count(a) AS authors, reduce(all = [], ids IN collect(places) | all + ids) AS places
}
CALL (places) {
  UNWIND places AS id
  MATCH (i:Institution {id: id})
  WHERE NOT EXISTS { (i)<-[:AFFILIATED_WITH]-() }
  WITH DISTINCT i
  DETACH DELETE i
  RETURN count(*) AS institutions
}
CALL () {
  UNWIND $venues AS id
  MATCH (v:Venue {id: id})
  WHERE NOT EXISTS { (v)<-[:PUBLISHED_IN]-() }
  DETACH DELETE v
  RETURN count(*) AS venues
}
CALL () {
  UNWIND $topics AS id
  MATCH (t:Topic {id: id})
  WHERE NOT EXISTS { (t)<-[:HAS_TOPIC]-() }
  DETACH DELETE t
  RETURN count(*) AS topics
}
RETURN stubs, authors, institutions, venues, topics
