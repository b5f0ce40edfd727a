// Co-authors with the number of papers written together (within the filter).
MATCH (a:Author {id: $id})-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(co:Author)
WHERE co <> a AND p.stub = false
  AND ($yearFrom IS NULL OR p.year >= $yearFrom)
  AND ($yearTo IS NULL OR p.year <= $yearTo)
  AND ($topicId IS NULL OR EXISTS { (p)-[:HAS_TOPIC]->(:Topic {id: $topicId}) })
  AND ($venueId IS NULL OR EXISTS { (p)-[:PUBLISHED_IN]->(:Venue {id: $venueId}) })
  AND ($collections IS NULL OR any(c IN p.collections WHERE c IN $collections))
WITH co, count(DISTINCT p) AS joint
ORDER BY joint DESC, co.id
WITH collect([co, joint]) AS rows
RETURN size(rows) AS total, [r IN rows[$skip..($skip + $limit)] | {author: properties(r[0]), joint: r[1]}] AS items
