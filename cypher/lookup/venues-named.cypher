// Venue ids whose name matches a Lucene query over names (venue_name), best match first, ties by paper count.
CALL db.index.fulltext.queryNodes('venue_name', $query, {limit: $scan}) YIELD node AS v, score
WITH v, score, COUNT { (v)<-[:PUBLISHED_IN]-(:Paper {stub: false}) } AS papers
ORDER BY score DESC, papers DESC, v.id
LIMIT $limit
RETURN v.id AS id
