// Deletes a set and every node of it: its documents, their chunks and their REFERS_TO edges.
MATCH (s:DocumentSet {id: $id})
CALL (s) {
  OPTIONAL MATCH (s)-[:HOLDS]->(:SetDocument)-[:HAS_SET_CHUNK]->(c:SetChunk)
  DETACH DELETE c
}
CALL (s) {
  OPTIONAL MATCH (s)-[:HOLDS]->(d:SetDocument)
  DETACH DELETE d
}
DETACH DELETE s
RETURN $id AS id
