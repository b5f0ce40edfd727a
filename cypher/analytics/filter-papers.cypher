// The filtered full papers (at most $limit, the most cited inside the graph first): the nodes of a collection's
// networks and of its main path.
MATCH (p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
WITH p, p.internalCitedBy AS citations
ORDER BY citations DESC, p.id
LIMIT $limit
RETURN p.id AS id, p.title AS title, p.year AS year, p.publicationDate AS publicationDate
