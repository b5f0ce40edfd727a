// The papers the CD index counts around a focal paper (Funk and Owen-Smith 2017): full papers citing the focal paper
// or one of its references, published in or after its year (within $window years when given), split by whether they
// cite the focal paper, its references, or both. Each citing paper is reached once per way it cites and the ways are
// folded per paper (as cypher/analytics/papers-disruption.cypher does for many papers).
MATCH (f:Paper {id: $id})
OPTIONAL MATCH (f)-[:CITES]->(r:Paper)
WITH f, collect(DISTINCT r) AS refs
CALL (f, refs) {
  MATCH (i:Paper)-[:CITES]->(f)
  RETURN i, true AS viaFocal
  UNION ALL
  UNWIND refs AS r
  MATCH (i:Paper)-[:CITES]->(r)
  WHERE i <> f
  RETURN i, false AS viaFocal
}
WITH f, refs, i, viaFocal
WHERE i.stub = false
  AND (f.year IS NULL OR i.year IS NULL OR i.year >= f.year)
  AND ($window IS NULL OR (f.year IS NOT NULL AND i.year IS NOT NULL AND i.year <= f.year + $window))
WITH f, refs, i, max(CASE WHEN viaFocal THEN 1 ELSE 0 END) = 1 AS citesFocal,
     max(CASE WHEN viaFocal THEN 0 ELSE 1 END) = 1 AS citesReferences
RETURN f.id AS id, f.year AS year, size(refs) AS references,
       count(CASE WHEN citesFocal AND NOT citesReferences THEN 1 END) AS focalOnly,
       count(CASE WHEN citesFocal AND citesReferences THEN 1 END) AS both,
       count(CASE WHEN citesReferences AND NOT citesFocal THEN 1 END) AS referencesOnly
