// BM25 over paper title + abstract (Lucene, English analyzer). $query is built from escaped terms only.
// Lucene ranks the whole index; $limit over-fetches so that filters still leave $k papers.
CALL db.index.fulltext.queryNodes('paper_text', $query, {limit: $limit}) YIELD node AS p, score
WHERE p.stub = false
  // include: fragments/paper-filter
RETURN p.id AS paperId, score
ORDER BY score DESC
LIMIT $k
