// BM25 over paper title + abstract (Lucene, English analyzer). $query is built from escaped terms only.
// Lucene ranks the whole index; $limit over-fetches so that filters still leave $k papers.
CALL db.index.fulltext.queryNodes('paper_text', $query, {limit: $limit}) YIELD node AS p, score
WHERE p.stub = false
  AND ($collections IS NULL OR any(c IN p.collections WHERE c IN $collections))
  AND ($yearFrom IS NULL OR p.year >= $yearFrom)
  AND ($yearTo IS NULL OR p.year <= $yearTo)
  AND ($topics IS NULL OR EXISTS { (p)-[:HAS_TOPIC]->(t:Topic) WHERE t.id IN $topics })
  AND ($authors IS NULL OR EXISTS { (p)<-[:AUTHORED]-(a:Author) WHERE a.id IN $authors })
  AND ($venues IS NULL OR EXISTS { (p)-[:PUBLISHED_IN]->(v:Venue) WHERE v.id IN $venues })
RETURN p.id AS paperId, score
ORDER BY score DESC
LIMIT $k
