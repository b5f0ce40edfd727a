// An author's works, newest first, one page of them and the total.
MATCH (:Author {id: $id})-[:AUTHORED]->(p:Paper)
WHERE p.stub = false
  AND ($yearFrom IS NULL OR p.year >= $yearFrom)
  AND ($yearTo IS NULL OR p.year <= $yearTo)
  AND ($topicId IS NULL OR EXISTS { (p)-[:HAS_TOPIC]->(:Topic {id: $topicId}) })
  AND ($venueId IS NULL OR EXISTS { (p)-[:PUBLISHED_IN]->(:Venue {id: $venueId}) })
  AND ($collections IS NULL OR any(c IN p.collections WHERE c IN $collections))
WITH p ORDER BY p.year DESC, p.id
WITH collect(p) AS works
RETURN size(works) AS total, [w IN works[$skip..($skip + $limit)] | w {.*}] AS items
