// Joint papers between pairs of the given authors within the filter.
MATCH (a:Author)-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(b:Author)
WHERE a.id IN $authorIds AND b.id IN $authorIds AND a.id < b.id AND p.stub = false
  AND ($yearFrom IS NULL OR p.year >= $yearFrom)
  AND ($yearTo IS NULL OR p.year <= $yearTo)
  AND ($topicId IS NULL OR EXISTS { (p)-[:HAS_TOPIC]->(:Topic {id: $topicId}) })
  AND ($venueId IS NULL OR EXISTS { (p)-[:PUBLISHED_IN]->(:Venue {id: $venueId}) })
  AND ($collections IS NULL OR any(c IN p.collections WHERE c IN $collections))
WITH a, b, count(DISTINCT p) AS joint
WHERE joint >= $minJoint
RETURN a.id AS source, b.id AS target, joint
ORDER BY joint DESC, source, target
LIMIT $maxEdges
