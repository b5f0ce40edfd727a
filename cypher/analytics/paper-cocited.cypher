// Co-citation: papers cited together with this one by the same full papers, with how many papers cite both.
// One hop out and one hop back, bounded by the citing papers of one paper.
MATCH (p:Paper {id: $id})<-[:CITES]-(x:Paper)-[:CITES]->(q:Paper)
WHERE x.stub = false AND q <> p
WITH q, count(DISTINCT x) AS count
ORDER BY count DESC, q.stub, q.id
WITH collect([q, count]) AS rows
RETURN size(rows) AS total, [r IN rows[$skip..($skip + $limit)] | {paper: properties(r[0]), count: r[1]}] AS items
