// Relay-style page over full (non-stub) papers, keyset-paginated by id.
MATCH (p:Paper)
WHERE p.stub = false
  AND ($after IS NULL OR p.id > $after)
  AND ($collections IS NULL OR any(c IN p.collections WHERE c IN $collections))
  AND ($yearFrom IS NULL OR p.year >= $yearFrom)
  AND ($yearTo IS NULL OR p.year <= $yearTo)
  AND ($topicId IS NULL OR EXISTS { (p)-[:HAS_TOPIC]->(:Topic {id: $topicId}) })
  AND ($venueId IS NULL OR EXISTS { (p)-[:PUBLISHED_IN]->(:Venue {id: $venueId}) })
RETURN p {.*} AS paper
ORDER BY p.id
LIMIT $limit
