// Works this paper cites (stubs included, marked): in the order of a sort when one is given, else full papers first,
// newest first.
MATCH (:Paper {id: $id})-[:CITES]->(p:Paper)
WITH p,
  // include: fragments/paper-sort-key
  AS sortKey
ORDER BY
  // include: fragments/paper-order
  p.stub, p.year DESC, p.id
WITH collect(p) AS rows
RETURN size(rows) AS total, [r IN rows[$skip..($skip + $limit)] | r {.*}] AS items
