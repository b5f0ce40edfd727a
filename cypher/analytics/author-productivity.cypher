// Papers per identified author over the filtered papers (anonymous authors, kept one per work, are left out: each
// would count as a one-paper author), for Lotka's law.
MATCH (p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
MATCH (a:Author)-[:AUTHORED]->(p)
WHERE coalesce(a.anonymous, false) = false
WITH a, count(DISTINCT p) AS papers
RETURN papers, count(a) AS authors
ORDER BY papers
