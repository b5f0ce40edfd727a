// Papers of a topic, strongest assignment first.
MATCH (:Topic {id: $id})<-[r:HAS_TOPIC]-(p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
WITH p, r ORDER BY r.score DESC, p.id
WITH collect(p) AS rows
RETURN size(rows) AS total, [x IN rows[$skip..($skip + $limit)] | x {.*}] AS items
