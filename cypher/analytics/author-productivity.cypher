// Papers per identified person over the filtered papers, for Lotka's law: records sharing an ORCID are one person;
// anonymous authors, kept one per work, are left out (each would count as a one-paper author).
MATCH (p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
MATCH (a:Author)-[:AUTHORED]->(p)
WHERE coalesce(a.anonymous, false) = false
WITH coalesce('orcid:' + a.orcid, a.id) AS person, count(DISTINCT p) AS papers
RETURN papers, count(person) AS authors
ORDER BY papers
