// The co-citation network of a set of citing papers: the $limit works they cite most (at least twice; stubs only when
// $stubs), and the pairs of those cited together by at least $minWeight papers of the set.
UNWIND $ids AS id
MATCH (:Paper {id: id})-[:CITES]->(r:Paper)
WITH r, count(*) AS cited
WHERE cited >= 2 AND ($stubs OR r.stub = false)
ORDER BY cited DESC, r.id
LIMIT $limit
WITH collect(r.id) AS nodes, collect({id: r.id, title: r.title, year: r.year, stub: coalesce(r.stub, false), cited: cited}) AS rows
CALL (nodes) {
  UNWIND $ids AS id
  MATCH (:Paper {id: id})-[:CITES]->(r:Paper)
  WHERE r.id IN nodes
  WITH id, collect(r.id) AS refs
  UNWIND refs AS a
  UNWIND refs AS b
  WITH a, b WHERE a < b
  WITH a, b, count(*) AS weight
  WHERE weight >= $minWeight
  RETURN collect({source: a, target: b, weight: weight}) AS edges
}
RETURN rows, edges
