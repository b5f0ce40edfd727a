// Titles of the papers that cite each paper: the vocabulary others use for it (corpus-side enrichment).
MATCH (p:Paper)
WHERE p.stub = false AND p.id > $after
  // include: fragments/paper-filter
WITH p ORDER BY p.id LIMIT $limit
OPTIONAL MATCH (p)<-[:CITES]-(q:Paper)
WHERE q.stub = false AND q.title IS NOT NULL
RETURN p.id AS id, coalesce(p.title, '') + ' ' + coalesce(p.abstract, '') AS text, collect(q.title)[..50] AS citingTitles
