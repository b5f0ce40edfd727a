// One person's metrics over every author node that is that person (nodes sharing an ORCID): distinct papers, their
// citations inside the graph and globally, the years, and the most cited papers.
MATCH (a:Author)-[:AUTHORED]->(p:Paper)
WHERE a.id IN $ids AND p.stub = false
WITH DISTINCT p
WITH p, p.internalCitedBy AS internal
ORDER BY internal DESC, coalesce(p.citedByCount, 0) DESC, p.id
RETURN collect(internal) AS internal, collect(coalesce(p.citedByCount, 0)) AS global,
       min(p.year) AS firstYear, max(p.year) AS lastYear, collect(p.id)[..5] AS topPaperIds
