// Titles and abstracts of full papers (optionally of some collections), for corpus statistics such as document
// frequencies. Keyset-paginated by id.
MATCH (p:Paper)
WHERE p.stub = false AND p.id > $after
  AND ($collections IS NULL OR any(c IN p.collections WHERE c IN $collections))
RETURN p.id AS id, coalesce(p.title, '') + ' ' + coalesce(p.abstract, '') AS text
ORDER BY p.id
LIMIT $limit
