// Papers of a topic, strongest assignment first.
MATCH (:Topic {id: $id})<-[r:HAS_TOPIC]-(p:Paper)
WHERE p.stub = false
  AND ($yearFrom IS NULL OR p.year >= $yearFrom)
  AND ($yearTo IS NULL OR p.year <= $yearTo)
  AND ($topicId IS NULL OR EXISTS { (p)-[:HAS_TOPIC]->(:Topic {id: $topicId}) })
  AND ($venueId IS NULL OR EXISTS { (p)-[:PUBLISHED_IN]->(:Venue {id: $venueId}) })
  AND ($collections IS NULL OR any(c IN p.collections WHERE c IN $collections))
WITH p, r ORDER BY r.score DESC, p.id
WITH collect(p) AS rows
RETURN size(rows) AS total, [x IN rows[$skip..($skip + $limit)] | x {.*}] AS items
