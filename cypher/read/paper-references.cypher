// Works this paper cites (stubs included, marked), full papers first.
MATCH (:Paper {id: $id})-[:CITES]->(q:Paper)
WITH q ORDER BY q.stub, q.year DESC, q.id
WITH collect(q) AS rows
RETURN size(rows) AS total, [r IN rows[$skip..($skip + $limit)] | r {.*}] AS items
