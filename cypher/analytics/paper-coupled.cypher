// Bibliographic coupling: full papers that share references with this one (stub references count), with how many.
MATCH (p:Paper {id: $id})-[:CITES]->(r:Paper)<-[:CITES]-(q:Paper)
WHERE q.stub = false AND q <> p
WITH q, count(DISTINCT r) AS count
ORDER BY count DESC, q.id
WITH collect([q, count]) AS rows
RETURN size(rows) AS total, [r IN rows[$skip..($skip + $limit)] | {paper: properties(r[0]), count: r[1]}] AS items
