// Papers whose title or abstract contains every word of $query ("+w1 +w2 …" or +"a phrase", escaped terms; the
// English analyzer stems), within the collections. For relational sufficiency: does the graph hold a paper on both
// concepts? Lucene returns up to $scan hits before the collection filter, so that a small collection in a large graph
// still finds its papers; $limit is applied after the filter.
CALL db.index.fulltext.queryNodes('paper_text', $query, {limit: $scan}) YIELD node AS p
WHERE p.stub = false AND ($collections IS NULL OR any(col IN p.collections WHERE col IN $collections))
RETURN p.id AS id
LIMIT $limit
