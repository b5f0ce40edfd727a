// The topic co-occurrence network of the filtered full papers: the $limit topics (level ≥ $minLevel) carried by most
// of them, and the pairs of those carried together by at least $minWeight of them.
MATCH (p:Paper)-[:HAS_TOPIC]->(t:Topic)
WHERE p.stub = false
  AND coalesce(t.level, 0) >= $minLevel
  // include: fragments/paper-filter
WITH t, count(p) AS papers
ORDER BY papers DESC, t.id
LIMIT $limit
WITH collect(t) AS topics, collect({id: t.id, name: t.name, papers: papers}) AS rows
CALL (topics) {
  UNWIND topics AS a
  MATCH (a)<-[:HAS_TOPIC]-(p:Paper)-[:HAS_TOPIC]->(b:Topic)
  WHERE a.id < b.id
    AND b IN topics
    AND p.stub = false
    // include: fragments/paper-filter
  WITH a.id AS source, b.id AS target, count(p) AS weight
  WHERE weight >= $minWeight
  RETURN collect({source: source, target: target, weight: weight}) AS edges
}
RETURN rows, edges
