// Full papers that cite this one: in the order of a sort when one is given, else newest first.
MATCH (:Paper {id: $id})<-[:CITES]-(p:Paper)
WHERE p.stub = false
WITH p,
  // include: fragments/paper-sort-key
  AS sortKey
ORDER BY
  // include: fragments/paper-order
  p.year DESC, p.id
WITH collect(p) AS rows
RETURN size(rows) AS total, [r IN rows[$skip..($skip + $limit)] | r {.*}] AS items
