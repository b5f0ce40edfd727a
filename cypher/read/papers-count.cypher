MATCH (p:Paper)
WHERE p.stub = false
  AND ($collections IS NULL OR any(c IN p.collections WHERE c IN $collections))
  AND ($yearFrom IS NULL OR p.year >= $yearFrom)
  AND ($yearTo IS NULL OR p.year <= $yearTo)
  AND ($topicId IS NULL OR EXISTS { (p)-[:HAS_TOPIC]->(:Topic {id: $topicId}) })
  AND ($venueId IS NULL OR EXISTS { (p)-[:PUBLISHED_IN]->(:Venue {id: $venueId}) })
RETURN count(p) AS total
