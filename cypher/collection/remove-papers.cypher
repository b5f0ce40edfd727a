// Removes papers that belong to no collection any more: their chunks and edges go. A paper a full paper still cites
// stays as a stub (id, DOI, title, year), so that the citing paper's co-citation and coupling stay right.
UNWIND $ids AS id
MATCH (p:Paper {id: id})
CALL (p) {
  OPTIONAL MATCH (p)-[:HAS_CHUNK]->(c:Chunk)
  DETACH DELETE c
}
CALL (p) {
  OPTIONAL MATCH (p)-[r:CITES|PUBLISHED_IN|HAS_TOPIC]->()
  DELETE r
}
CALL (p) {
  OPTIONAL MATCH ()-[r:AUTHORED]->(p)
  DELETE r
}
WITH p, EXISTS { (p)<-[:CITES]-(:Paper {stub: false}) } AS cited
FOREACH (_ IN CASE WHEN cited THEN [1] ELSE [] END |
  SET p = {id: p.id, stub: true, doi: p.doi, title: p.title, year: p.year})
WITH p, cited
CALL (p, cited) {
  WITH p WHERE NOT cited
  DETACH DELETE p
}
RETURN sum(CASE WHEN cited THEN 0 ELSE 1 END) AS deleted, [id IN collect(CASE WHEN cited THEN p.id END) WHERE id IS NOT NULL] AS stubbed
