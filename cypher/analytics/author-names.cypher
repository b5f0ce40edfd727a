// The identified authors of the filtered papers (anonymous ones, kept one per work, are never candidates), with their
// ORCID and papers in the filter (how many, and which): the candidates for possible duplicates, and the records
// Lotka's law over people merges.
MATCH (p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
MATCH (a:Author)-[:AUTHORED]->(p)
WHERE coalesce(a.anonymous, false) = false AND a.name IS NOT NULL
RETURN a.id AS id, a.name AS name, a.orcid AS orcid, count(DISTINCT p) AS papers, collect(DISTINCT p.id) AS paperIds
