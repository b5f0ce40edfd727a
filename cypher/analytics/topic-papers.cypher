// Papers of a topic, strongest assignment first unless a sort is given, one page of them and the total.
MATCH (:Topic {id: $id})<-[r:HAS_TOPIC]-(p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
WITH p, r,
  // include: fragments/paper-sort-key
  AS sortKey
ORDER BY
  // include: fragments/paper-order
  r.score DESC, p.id
WITH collect(p) AS rows
RETURN size(rows) AS total, [x IN rows[$skip..($skip + $limit)] | x {.*}] AS items
