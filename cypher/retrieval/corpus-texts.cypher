// Titles and abstracts of full papers (optionally of some collections), for corpus statistics such as document
// frequencies. Keyset-paginated by id.
MATCH (p:Paper)
WHERE p.stub = false AND p.id > $after
  // include: fragments/paper-filter
RETURN p.id AS id, coalesce(p.title, '') + ' ' + coalesce(p.abstract, '') AS text
ORDER BY p.id
LIMIT $limit
