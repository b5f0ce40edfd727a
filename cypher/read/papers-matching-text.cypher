// Full papers whose title or abstract matches a Lucene query (paper_text, English analyser), best first, at most
// $limit: the text part of the one paper filter, resolved once per request.
CALL db.index.fulltext.queryNodes('paper_text', $query) YIELD node AS p, score
WHERE p.stub = false
RETURN p.id AS id, score
LIMIT $limit
