// Papers whose title or abstract contains every word of $query ("+w1 +w2 …", escaped terms; the English analyzer
// stems), within the collections. For relational sufficiency: does the graph hold a paper on both concepts?
CALL db.index.fulltext.queryNodes('paper_text', $query, {limit: $limit}) YIELD node AS p
WHERE p.stub = false AND ($collections IS NULL OR any(col IN p.collections WHERE col IN $collections))
RETURN p.id AS id
