// The most productive identified authors within the filter: the nodes of a collaboration network.
MATCH (a:Author)-[:AUTHORED]->(p:Paper)
WHERE p.stub = false AND a.anonymous = false
  // include: fragments/paper-filter
WITH a, count(DISTINCT p) AS papers
ORDER BY papers DESC, a.id
LIMIT $limit
RETURN a {.id, .name, .orcid} AS author, papers
