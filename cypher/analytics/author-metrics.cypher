// Per-work citation counts of an author (inside the corpus: CITES from full papers; global: OpenAlex cited_by_count)
// and the years; the h-indexes are computed from these lists in the service.
MATCH (:Author {id: $id})-[:AUTHORED]->(p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
WITH DISTINCT p
RETURN collect(p.internalCitedBy) AS internal,
       collect(coalesce(p.citedByCount, 0)) AS global,
       min(p.year) AS firstYear, max(p.year) AS lastYear
