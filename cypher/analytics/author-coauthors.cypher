// Co-authors with the number of papers written together (within the filter).
MATCH (a:Author {id: $id})-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(co:Author)
WHERE co <> a AND p.stub = false
  // include: fragments/paper-filter
WITH co, count(DISTINCT p) AS joint
ORDER BY joint DESC, co.id
WITH collect([co, joint]) AS rows
RETURN size(rows) AS total, [r IN rows[$skip..($skip + $limit)] | {author: properties(r[0]), joint: r[1]}] AS items
