// An author's works, newest first unless a sort is given, one page of them and the total.
MATCH (:Author {id: $id})-[:AUTHORED]->(p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
WITH p,
  // include: fragments/paper-sort-key
  AS sortKey
ORDER BY
  // include: fragments/paper-order
  p.year DESC, p.id
WITH collect(p) AS works
RETURN size(works) AS total, [w IN works[$skip..($skip + $limit)] | w {.*}] AS items
