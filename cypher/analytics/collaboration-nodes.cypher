// The most productive identified authors within the filter: the nodes of a collaboration network.
MATCH (a:Author)-[:AUTHORED]->(p:Paper)
WHERE p.stub = false AND a.anonymous = false
  AND ($yearFrom IS NULL OR p.year >= $yearFrom)
  AND ($yearTo IS NULL OR p.year <= $yearTo)
  AND ($topicId IS NULL OR EXISTS { (p)-[:HAS_TOPIC]->(:Topic {id: $topicId}) })
  AND ($venueId IS NULL OR EXISTS { (p)-[:PUBLISHED_IN]->(:Venue {id: $venueId}) })
  AND ($collections IS NULL OR any(c IN p.collections WHERE c IN $collections))
WITH a, count(DISTINCT p) AS papers
ORDER BY papers DESC, a.id
LIMIT $limit
RETURN a {.id, .name, .orcid} AS author, papers
